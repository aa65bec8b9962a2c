-- Index range lookups keyed by another table's column: the bound gets no affinity
-- where the comparison has none (a column of no numeric affinity against a TEXT
-- index column: SQLite's updateRangeAffinityStr), the index column's otherwise
create table d(k TEXT, v, PRIMARY KEY(k, v)) WITHOUT ROWID;
insert into d values('2', 0), ('1', 1), ('10', 2), ('abc', 3);
create table d1(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
insert into d1 values('2', 0), ('1', 1), ('10', 2), ('abc', 3);
create table c(id INTEGER PRIMARY KEY, k, v);
insert into c values(1, 1, 0), (2, 2, 0), (3, 2.5, 0), (4, '2', 0);
create table tt(k TEXT, v);
insert into tt values('2', 0), ('1', 1), ('10', 2);
create index ttk on tt(k);
create view cv as select * from c;
-- unordered
select c.id, d.k from c as c join d on c.k < d.k;
-- unordered
select c.id, d.k from c as c join d on d.k < c.k;
-- unordered
select c.id, d.k from d join c as c on c.k < d.k;
-- unordered
select c.id, d.k from c as c left join d on c.k < d.k;
-- unordered
select c.id, d1.k from c as c join d1 on c.k < d1.k;
-- unordered
select c.id, d1.k from c as c join d1 on d1.k < c.k;
-- unordered
select c.id, d1.k from d1 join c as c on c.k < d1.k;
-- unordered
select c.id, d1.k from c as c left join d1 on c.k < d1.k;
-- unordered
select c.id, tt.k from c as c join tt on c.k < tt.k;
-- unordered
select c.id, tt.k from c as c join tt on tt.k < c.k;
-- unordered
select c.id, tt.k from tt join c as c on c.k < tt.k;
-- unordered
select c.id, tt.k from c as c left join tt on c.k < tt.k;
-- unordered
select c.id, d.k from cv as c join d on c.k < d.k;
-- unordered
select c.id, d.k from cv as c join d on d.k < c.k;
-- unordered
select c.id, d.k from d join cv as c on c.k < d.k;
-- unordered
select c.id, d.k from cv as c left join d on c.k < d.k;
-- unordered
select c.id, d1.k from cv as c join d1 on c.k < d1.k;
-- unordered
select c.id, d1.k from cv as c join d1 on d1.k < c.k;
-- unordered
select c.id, d1.k from d1 join cv as c on c.k < d1.k;
-- unordered
select c.id, d1.k from cv as c left join d1 on c.k < d1.k;
-- unordered
select c.id, tt.k from cv as c join tt on c.k < tt.k;
-- unordered
select c.id, tt.k from cv as c join tt on tt.k < c.k;
-- unordered
select c.id, tt.k from tt join cv as c on c.k < tt.k;
-- unordered
select c.id, tt.k from cv as c left join tt on c.k < tt.k;
-- unordered
select c.id, d.k from (select * from c) as c join d on c.k < d.k;
-- unordered
select c.id, d.k from (select * from c) as c join d on d.k < c.k;
-- unordered
select c.id, d.k from d join (select * from c) as c on c.k < d.k;
-- unordered
select c.id, d.k from (select * from c) as c left join d on c.k < d.k;
-- unordered
select c.id, d1.k from (select * from c) as c join d1 on c.k < d1.k;
-- unordered
select c.id, d1.k from (select * from c) as c join d1 on d1.k < c.k;
-- unordered
select c.id, d1.k from d1 join (select * from c) as c on c.k < d1.k;
-- unordered
select c.id, d1.k from (select * from c) as c left join d1 on c.k < d1.k;
-- unordered
select c.id, tt.k from (select * from c) as c join tt on c.k < tt.k;
-- unordered
select c.id, tt.k from (select * from c) as c join tt on tt.k < c.k;
-- unordered
select c.id, tt.k from tt join (select * from c) as c on c.k < tt.k;
-- unordered
select c.id, tt.k from (select * from c) as c left join tt on c.k < tt.k;
-- unordered
select c.id, d.k from (select * from c where v is not 3) as c join d on c.k < d.k;
-- unordered
select c.id, d.k from (select * from c where v is not 3) as c join d on d.k < c.k;
-- unordered
select c.id, d.k from d join (select * from c where v is not 3) as c on c.k < d.k;
-- unordered
select c.id, d.k from (select * from c where v is not 3) as c left join d on c.k < d.k;
-- unordered
select c.id, d1.k from (select * from c where v is not 3) as c join d1 on c.k < d1.k;
-- unordered
select c.id, d1.k from (select * from c where v is not 3) as c join d1 on d1.k < c.k;
-- unordered
select c.id, d1.k from d1 join (select * from c where v is not 3) as c on c.k < d1.k;
-- unordered
select c.id, d1.k from (select * from c where v is not 3) as c left join d1 on c.k < d1.k;
-- unordered
select c.id, tt.k from (select * from c where v is not 3) as c join tt on c.k < tt.k;
-- unordered
select c.id, tt.k from (select * from c where v is not 3) as c join tt on tt.k < c.k;
-- unordered
select c.id, tt.k from tt join (select * from c where v is not 3) as c on c.k < tt.k;
-- unordered
select c.id, tt.k from (select * from c where v is not 3) as c left join tt on c.k < tt.k;
-- unordered
select c.id, d.k from c as c join d on c.k <= d.k;
-- unordered
select c.id, d.k from c as c join d on d.k <= c.k;
-- unordered
select c.id, d.k from d join c as c on c.k <= d.k;
-- unordered
select c.id, d.k from c as c left join d on c.k <= d.k;
-- unordered
select c.id, d1.k from c as c join d1 on c.k <= d1.k;
-- unordered
select c.id, d1.k from c as c join d1 on d1.k <= c.k;
-- unordered
select c.id, d1.k from d1 join c as c on c.k <= d1.k;
-- unordered
select c.id, d1.k from c as c left join d1 on c.k <= d1.k;
-- unordered
select c.id, tt.k from c as c join tt on c.k <= tt.k;
-- unordered
select c.id, tt.k from c as c join tt on tt.k <= c.k;
-- unordered
select c.id, tt.k from tt join c as c on c.k <= tt.k;
-- unordered
select c.id, tt.k from c as c left join tt on c.k <= tt.k;
-- unordered
select c.id, d.k from cv as c join d on c.k <= d.k;
-- unordered
select c.id, d.k from cv as c join d on d.k <= c.k;
-- unordered
select c.id, d.k from d join cv as c on c.k <= d.k;
-- unordered
select c.id, d.k from cv as c left join d on c.k <= d.k;
-- unordered
select c.id, d1.k from cv as c join d1 on c.k <= d1.k;
-- unordered
select c.id, d1.k from cv as c join d1 on d1.k <= c.k;
-- unordered
select c.id, d1.k from d1 join cv as c on c.k <= d1.k;
-- unordered
select c.id, d1.k from cv as c left join d1 on c.k <= d1.k;
-- unordered
select c.id, tt.k from cv as c join tt on c.k <= tt.k;
-- unordered
select c.id, tt.k from cv as c join tt on tt.k <= c.k;
-- unordered
select c.id, tt.k from tt join cv as c on c.k <= tt.k;
-- unordered
select c.id, tt.k from cv as c left join tt on c.k <= tt.k;
-- unordered
select c.id, d.k from (select * from c) as c join d on c.k <= d.k;
-- unordered
select c.id, d.k from (select * from c) as c join d on d.k <= c.k;
-- unordered
select c.id, d.k from d join (select * from c) as c on c.k <= d.k;
-- unordered
select c.id, d.k from (select * from c) as c left join d on c.k <= d.k;
-- unordered
select c.id, d1.k from (select * from c) as c join d1 on c.k <= d1.k;
-- unordered
select c.id, d1.k from (select * from c) as c join d1 on d1.k <= c.k;
-- unordered
select c.id, d1.k from d1 join (select * from c) as c on c.k <= d1.k;
-- unordered
select c.id, d1.k from (select * from c) as c left join d1 on c.k <= d1.k;
-- unordered
select c.id, tt.k from (select * from c) as c join tt on c.k <= tt.k;
-- unordered
select c.id, tt.k from (select * from c) as c join tt on tt.k <= c.k;
-- unordered
select c.id, tt.k from tt join (select * from c) as c on c.k <= tt.k;
-- unordered
select c.id, tt.k from (select * from c) as c left join tt on c.k <= tt.k;
-- unordered
select c.id, d.k from (select * from c where v is not 3) as c join d on c.k <= d.k;
-- unordered
select c.id, d.k from (select * from c where v is not 3) as c join d on d.k <= c.k;
-- unordered
select c.id, d.k from d join (select * from c where v is not 3) as c on c.k <= d.k;
-- unordered
select c.id, d.k from (select * from c where v is not 3) as c left join d on c.k <= d.k;
-- unordered
select c.id, d1.k from (select * from c where v is not 3) as c join d1 on c.k <= d1.k;
-- unordered
select c.id, d1.k from (select * from c where v is not 3) as c join d1 on d1.k <= c.k;
-- unordered
select c.id, d1.k from d1 join (select * from c where v is not 3) as c on c.k <= d1.k;
-- unordered
select c.id, d1.k from (select * from c where v is not 3) as c left join d1 on c.k <= d1.k;
-- unordered
select c.id, tt.k from (select * from c where v is not 3) as c join tt on c.k <= tt.k;
-- unordered
select c.id, tt.k from (select * from c where v is not 3) as c join tt on tt.k <= c.k;
-- unordered
select c.id, tt.k from tt join (select * from c where v is not 3) as c on c.k <= tt.k;
-- unordered
select c.id, tt.k from (select * from c where v is not 3) as c left join tt on c.k <= tt.k;
-- unordered
select c.id, d.k from c as c join d on c.k > d.k;
-- unordered
select c.id, d.k from c as c join d on d.k > c.k;
-- unordered
select c.id, d.k from d join c as c on c.k > d.k;
-- unordered
select c.id, d.k from c as c left join d on c.k > d.k;
-- unordered
select c.id, d1.k from c as c join d1 on c.k > d1.k;
-- unordered
select c.id, d1.k from c as c join d1 on d1.k > c.k;
-- unordered
select c.id, d1.k from d1 join c as c on c.k > d1.k;
-- unordered
select c.id, d1.k from c as c left join d1 on c.k > d1.k;
-- unordered
select c.id, tt.k from c as c join tt on c.k > tt.k;
-- unordered
select c.id, tt.k from c as c join tt on tt.k > c.k;
-- unordered
select c.id, tt.k from tt join c as c on c.k > tt.k;
-- unordered
select c.id, tt.k from c as c left join tt on c.k > tt.k;
-- unordered
select c.id, d.k from cv as c join d on c.k > d.k;
-- unordered
select c.id, d.k from cv as c join d on d.k > c.k;
-- unordered
select c.id, d.k from d join cv as c on c.k > d.k;
-- unordered
select c.id, d.k from cv as c left join d on c.k > d.k;
-- unordered
select c.id, d1.k from cv as c join d1 on c.k > d1.k;
-- unordered
select c.id, d1.k from cv as c join d1 on d1.k > c.k;
-- unordered
select c.id, d1.k from d1 join cv as c on c.k > d1.k;
-- unordered
select c.id, d1.k from cv as c left join d1 on c.k > d1.k;
-- unordered
select c.id, tt.k from cv as c join tt on c.k > tt.k;
-- unordered
select c.id, tt.k from cv as c join tt on tt.k > c.k;
-- unordered
select c.id, tt.k from tt join cv as c on c.k > tt.k;
-- unordered
select c.id, tt.k from cv as c left join tt on c.k > tt.k;
-- unordered
select c.id, d.k from (select * from c) as c join d on c.k > d.k;
-- unordered
select c.id, d.k from (select * from c) as c join d on d.k > c.k;
-- unordered
select c.id, d.k from d join (select * from c) as c on c.k > d.k;
-- unordered
select c.id, d.k from (select * from c) as c left join d on c.k > d.k;
-- unordered
select c.id, d1.k from (select * from c) as c join d1 on c.k > d1.k;
-- unordered
select c.id, d1.k from (select * from c) as c join d1 on d1.k > c.k;
-- unordered
select c.id, d1.k from d1 join (select * from c) as c on c.k > d1.k;
-- unordered
select c.id, d1.k from (select * from c) as c left join d1 on c.k > d1.k;
-- unordered
select c.id, tt.k from (select * from c) as c join tt on c.k > tt.k;
-- unordered
select c.id, tt.k from (select * from c) as c join tt on tt.k > c.k;
-- unordered
select c.id, tt.k from tt join (select * from c) as c on c.k > tt.k;
-- unordered
select c.id, tt.k from (select * from c) as c left join tt on c.k > tt.k;
-- unordered
select c.id, d.k from (select * from c where v is not 3) as c join d on c.k > d.k;
-- unordered
select c.id, d.k from (select * from c where v is not 3) as c join d on d.k > c.k;
-- unordered
select c.id, d.k from d join (select * from c where v is not 3) as c on c.k > d.k;
-- unordered
select c.id, d.k from (select * from c where v is not 3) as c left join d on c.k > d.k;
-- unordered
select c.id, d1.k from (select * from c where v is not 3) as c join d1 on c.k > d1.k;
-- unordered
select c.id, d1.k from (select * from c where v is not 3) as c join d1 on d1.k > c.k;
-- unordered
select c.id, d1.k from d1 join (select * from c where v is not 3) as c on c.k > d1.k;
-- unordered
select c.id, d1.k from (select * from c where v is not 3) as c left join d1 on c.k > d1.k;
-- unordered
select c.id, tt.k from (select * from c where v is not 3) as c join tt on c.k > tt.k;
-- unordered
select c.id, tt.k from (select * from c where v is not 3) as c join tt on tt.k > c.k;
-- unordered
select c.id, tt.k from tt join (select * from c where v is not 3) as c on c.k > tt.k;
-- unordered
select c.id, tt.k from (select * from c where v is not 3) as c left join tt on c.k > tt.k;
-- unordered
select c.id, d.k from c as c join d on c.k >= d.k;
-- unordered
select c.id, d.k from c as c join d on d.k >= c.k;
-- unordered
select c.id, d.k from d join c as c on c.k >= d.k;
-- unordered
select c.id, d.k from c as c left join d on c.k >= d.k;
-- unordered
select c.id, d1.k from c as c join d1 on c.k >= d1.k;
-- unordered
select c.id, d1.k from c as c join d1 on d1.k >= c.k;
-- unordered
select c.id, d1.k from d1 join c as c on c.k >= d1.k;
-- unordered
select c.id, d1.k from c as c left join d1 on c.k >= d1.k;
-- unordered
select c.id, tt.k from c as c join tt on c.k >= tt.k;
-- unordered
select c.id, tt.k from c as c join tt on tt.k >= c.k;
-- unordered
select c.id, tt.k from tt join c as c on c.k >= tt.k;
-- unordered
select c.id, tt.k from c as c left join tt on c.k >= tt.k;
-- unordered
select c.id, d.k from cv as c join d on c.k >= d.k;
-- unordered
select c.id, d.k from cv as c join d on d.k >= c.k;
-- unordered
select c.id, d.k from d join cv as c on c.k >= d.k;
-- unordered
select c.id, d.k from cv as c left join d on c.k >= d.k;
-- unordered
select c.id, d1.k from cv as c join d1 on c.k >= d1.k;
-- unordered
select c.id, d1.k from cv as c join d1 on d1.k >= c.k;
-- unordered
select c.id, d1.k from d1 join cv as c on c.k >= d1.k;
-- unordered
select c.id, d1.k from cv as c left join d1 on c.k >= d1.k;
-- unordered
select c.id, tt.k from cv as c join tt on c.k >= tt.k;
-- unordered
select c.id, tt.k from cv as c join tt on tt.k >= c.k;
-- unordered
select c.id, tt.k from tt join cv as c on c.k >= tt.k;
-- unordered
select c.id, tt.k from cv as c left join tt on c.k >= tt.k;
-- unordered
select c.id, d.k from (select * from c) as c join d on c.k >= d.k;
-- unordered
select c.id, d.k from (select * from c) as c join d on d.k >= c.k;
-- unordered
select c.id, d.k from d join (select * from c) as c on c.k >= d.k;
-- unordered
select c.id, d.k from (select * from c) as c left join d on c.k >= d.k;
-- unordered
select c.id, d1.k from (select * from c) as c join d1 on c.k >= d1.k;
-- unordered
select c.id, d1.k from (select * from c) as c join d1 on d1.k >= c.k;
-- unordered
select c.id, d1.k from d1 join (select * from c) as c on c.k >= d1.k;
-- unordered
select c.id, d1.k from (select * from c) as c left join d1 on c.k >= d1.k;
-- unordered
select c.id, tt.k from (select * from c) as c join tt on c.k >= tt.k;
-- unordered
select c.id, tt.k from (select * from c) as c join tt on tt.k >= c.k;
-- unordered
select c.id, tt.k from tt join (select * from c) as c on c.k >= tt.k;
-- unordered
select c.id, tt.k from (select * from c) as c left join tt on c.k >= tt.k;
-- unordered
select c.id, d.k from (select * from c where v is not 3) as c join d on c.k >= d.k;
-- unordered
select c.id, d.k from (select * from c where v is not 3) as c join d on d.k >= c.k;
-- unordered
select c.id, d.k from d join (select * from c where v is not 3) as c on c.k >= d.k;
-- unordered
select c.id, d.k from (select * from c where v is not 3) as c left join d on c.k >= d.k;
-- unordered
select c.id, d1.k from (select * from c where v is not 3) as c join d1 on c.k >= d1.k;
-- unordered
select c.id, d1.k from (select * from c where v is not 3) as c join d1 on d1.k >= c.k;
-- unordered
select c.id, d1.k from d1 join (select * from c where v is not 3) as c on c.k >= d1.k;
-- unordered
select c.id, d1.k from (select * from c where v is not 3) as c left join d1 on c.k >= d1.k;
-- unordered
select c.id, tt.k from (select * from c where v is not 3) as c join tt on c.k >= tt.k;
-- unordered
select c.id, tt.k from (select * from c where v is not 3) as c join tt on tt.k >= c.k;
-- unordered
select c.id, tt.k from tt join (select * from c where v is not 3) as c on c.k >= tt.k;
-- unordered
select c.id, tt.k from (select * from c where v is not 3) as c left join tt on c.k >= tt.k;
-- unordered
select c.id, d.k from c as c join d on c.k = d.k;
-- unordered
select c.id, d.k from c as c join d on d.k = c.k;
-- unordered
select c.id, d.k from d join c as c on c.k = d.k;
-- unordered
select c.id, d.k from c as c left join d on c.k = d.k;
-- unordered
select c.id, d1.k from c as c join d1 on c.k = d1.k;
-- unordered
select c.id, d1.k from c as c join d1 on d1.k = c.k;
-- unordered
select c.id, d1.k from d1 join c as c on c.k = d1.k;
-- unordered
select c.id, d1.k from c as c left join d1 on c.k = d1.k;
-- unordered
select c.id, tt.k from c as c join tt on c.k = tt.k;
-- unordered
select c.id, tt.k from c as c join tt on tt.k = c.k;
-- unordered
select c.id, tt.k from tt join c as c on c.k = tt.k;
-- unordered
select c.id, tt.k from c as c left join tt on c.k = tt.k;
-- unordered
select c.id, d.k from cv as c join d on c.k = d.k;
-- unordered
select c.id, d.k from cv as c join d on d.k = c.k;
-- unordered
select c.id, d.k from d join cv as c on c.k = d.k;
-- unordered
select c.id, d.k from cv as c left join d on c.k = d.k;
-- unordered
select c.id, d1.k from cv as c join d1 on c.k = d1.k;
-- unordered
select c.id, d1.k from cv as c join d1 on d1.k = c.k;
-- unordered
select c.id, d1.k from d1 join cv as c on c.k = d1.k;
-- unordered
select c.id, d1.k from cv as c left join d1 on c.k = d1.k;
-- unordered
select c.id, tt.k from cv as c join tt on c.k = tt.k;
-- unordered
select c.id, tt.k from cv as c join tt on tt.k = c.k;
-- unordered
select c.id, tt.k from tt join cv as c on c.k = tt.k;
-- unordered
select c.id, tt.k from cv as c left join tt on c.k = tt.k;
-- unordered
select c.id, d.k from (select * from c) as c join d on c.k = d.k;
-- unordered
select c.id, d.k from (select * from c) as c join d on d.k = c.k;
-- unordered
select c.id, d.k from d join (select * from c) as c on c.k = d.k;
-- unordered
select c.id, d.k from (select * from c) as c left join d on c.k = d.k;
-- unordered
select c.id, d1.k from (select * from c) as c join d1 on c.k = d1.k;
-- unordered
select c.id, d1.k from (select * from c) as c join d1 on d1.k = c.k;
-- unordered
select c.id, d1.k from d1 join (select * from c) as c on c.k = d1.k;
-- unordered
select c.id, d1.k from (select * from c) as c left join d1 on c.k = d1.k;
-- unordered
select c.id, tt.k from (select * from c) as c join tt on c.k = tt.k;
-- unordered
select c.id, tt.k from (select * from c) as c join tt on tt.k = c.k;
-- unordered
select c.id, tt.k from tt join (select * from c) as c on c.k = tt.k;
-- unordered
select c.id, tt.k from (select * from c) as c left join tt on c.k = tt.k;
-- unordered
select c.id, d.k from (select * from c where v is not 3) as c join d on c.k = d.k;
-- unordered
select c.id, d.k from (select * from c where v is not 3) as c join d on d.k = c.k;
-- unordered
select c.id, d.k from d join (select * from c where v is not 3) as c on c.k = d.k;
-- unordered
select c.id, d.k from (select * from c where v is not 3) as c left join d on c.k = d.k;
-- unordered
select c.id, d1.k from (select * from c where v is not 3) as c join d1 on c.k = d1.k;
-- unordered
select c.id, d1.k from (select * from c where v is not 3) as c join d1 on d1.k = c.k;
-- unordered
select c.id, d1.k from d1 join (select * from c where v is not 3) as c on c.k = d1.k;
-- unordered
select c.id, d1.k from (select * from c where v is not 3) as c left join d1 on c.k = d1.k;
-- unordered
select c.id, tt.k from (select * from c where v is not 3) as c join tt on c.k = tt.k;
-- unordered
select c.id, tt.k from (select * from c where v is not 3) as c join tt on tt.k = c.k;
-- unordered
select c.id, tt.k from tt join (select * from c where v is not 3) as c on c.k = tt.k;
-- unordered
select c.id, tt.k from (select * from c where v is not 3) as c left join tt on c.k = tt.k;
-- unordered
select c.id, d.k from c as c join d on d.k between c.k and c.k;
-- unordered
select c.id, d.k from c as c join d on c.k between d.k and d.k;
-- unordered
select c.id, d.k from c as c join d on d.k in (c.k);
-- unordered
select c.id, d.k from c as c join d on c.k in (d.k);
-- unordered
select c.id, d1.k from c as c join d1 on d1.k between c.k and c.k;
-- unordered
select c.id, d1.k from c as c join d1 on c.k between d1.k and d1.k;
-- unordered
select c.id, d1.k from c as c join d1 on d1.k in (c.k);
-- unordered
select c.id, d1.k from c as c join d1 on c.k in (d1.k);
-- unordered
select c.id, tt.k from c as c join tt on tt.k between c.k and c.k;
-- unordered
select c.id, tt.k from c as c join tt on c.k between tt.k and tt.k;
-- unordered
select c.id, tt.k from c as c join tt on tt.k in (c.k);
-- unordered
select c.id, tt.k from c as c join tt on c.k in (tt.k);
-- unordered
select c.id, d.k from cv as c join d on d.k between c.k and c.k;
-- unordered
select c.id, d.k from cv as c join d on c.k between d.k and d.k;
-- unordered
select c.id, d.k from cv as c join d on d.k in (c.k);
-- unordered
select c.id, d.k from cv as c join d on c.k in (d.k);
-- unordered
select c.id, d1.k from cv as c join d1 on d1.k between c.k and c.k;
-- unordered
select c.id, d1.k from cv as c join d1 on c.k between d1.k and d1.k;
-- unordered
select c.id, d1.k from cv as c join d1 on d1.k in (c.k);
-- unordered
select c.id, d1.k from cv as c join d1 on c.k in (d1.k);
-- unordered
select c.id, tt.k from cv as c join tt on tt.k between c.k and c.k;
-- unordered
select c.id, tt.k from cv as c join tt on c.k between tt.k and tt.k;
-- unordered
select c.id, tt.k from cv as c join tt on tt.k in (c.k);
-- unordered
select c.id, tt.k from cv as c join tt on c.k in (tt.k);
-- unordered
select c.id, d.k from (select * from c) as c join d on d.k between c.k and c.k;
-- unordered
select c.id, d.k from (select * from c) as c join d on c.k between d.k and d.k;
-- unordered
select c.id, d.k from (select * from c) as c join d on d.k in (c.k);
-- unordered
select c.id, d.k from (select * from c) as c join d on c.k in (d.k);
-- unordered
select c.id, d1.k from (select * from c) as c join d1 on d1.k between c.k and c.k;
-- unordered
select c.id, d1.k from (select * from c) as c join d1 on c.k between d1.k and d1.k;
-- unordered
select c.id, d1.k from (select * from c) as c join d1 on d1.k in (c.k);
-- unordered
select c.id, d1.k from (select * from c) as c join d1 on c.k in (d1.k);
-- unordered
select c.id, tt.k from (select * from c) as c join tt on tt.k between c.k and c.k;
-- unordered
select c.id, tt.k from (select * from c) as c join tt on c.k between tt.k and tt.k;
-- unordered
select c.id, tt.k from (select * from c) as c join tt on tt.k in (c.k);
-- unordered
select c.id, tt.k from (select * from c) as c join tt on c.k in (tt.k);
-- unordered
select c.id, d.k from c join d on d.k > c.k and d.k < 5;
-- unordered
select c.id, d.k from c join d on d.k > 1 and d.k < c.k;
-- unordered
select c.id, d.k from c join d on d.k >= c.k and d.k <= c.k;
select c.id, d.k from c join d on d.k > c.k order by d.k desc;
select c.id, d.k from c join d on d.k < c.k order by d.k desc;
-- unordered
select c.id, d.k from c join d on d.k > c.v and d.k < c.k;
-- unordered
select c.id, d1.k from c join d1 on d1.k > 1;
-- unordered
select c.id, d1.k from c join d1 on d1.k > '1' and d1.k < c.k;
-- unordered
select c.id, tt.k from c join tt on tt.k > cast(c.k as text);
-- unordered
select c.id, tt.k from c join tt on tt.k > c.k + 0;
-- unordered
select c.id, tt.k from c join tt on tt.k < c.id;
-- unordered
select c.id, tt.k from c join tt on tt.k between c.k and 5;
-- unordered
select c.id, tt.k from c join tt on tt.k between 1 and c.k;
