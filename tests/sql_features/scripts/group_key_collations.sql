-- GROUP BY keys compared by their terms' collations (the group key's SortSpec, built by
-- _codegen._group_spec): BINARY, NOCASE and RTRIM terms, a column's declared collation,
-- an explicit COLLATE winning over it, several terms of mixed collations, bare columns
-- and group-term columns read outside aggregates, a FILTER, and the sorter and the
-- index-ordered paths
create table t(a text, b text collate nocase, c int, d text collate rtrim);
insert into t values('x', 'P', 1, 'u'), ('X', 'p', 2, 'u  '), ('x', 'q', 3, 'U'), ('y', 'Q', 4, 'u'), (null, null, 5, null), ('X', 'P', 6, 'v ');
select a, count(*) from t group by a order by 1, 2;
select a collate nocase, count(*) from t group by a collate nocase order by 2, 1;
select b, sum(c) from t group by b order by 2;
select b collate binary, sum(c) from t group by b collate binary order by 2;
select d, count(*), max(c) from t group by d order by 3;
select d collate nocase, count(*) from t group by d collate nocase order by 2;
select a, b, count(*) from t group by a, b order by 3, 1, 2;
select a collate nocase, b, d, sum(c) from t group by 1, 2, 3 order by 4;
select b, c, max(c) from t group by b order by 3;
select a, min(c), b from t group by a collate rtrim order by 2;
select b, count(*) filter (where c > 2), c from t group by b order by 2, 3;
select count(*) from t group by upper(a) collate nocase order by 1;
create index tb on t(b);
select b, count(*) from t group by b order by 2;
select b, count(*) from t group by b collate nocase order by 2;
select b, max(c), c from t group by b order by 2;
create index ta on t(a collate nocase);
select a, count(*) from t group by a collate nocase order by 2;
select a, count(*) from t group by a order by 2, 1;
