-- JSON functions and the -> / ->> operators
SELECT json('not json');
SELECT json_valid('{"a":1}'), json_valid('{a:1}'), json_valid(''), json_valid(NULL), json_valid('[]');
SELECT json_object('a');
SELECT json_extract('{"a": {"b": [10, 20, 30]}}', '$.a.b[1]');
SELECT json_extract('{"a": {"b": [10, 20, 30]}}', '$.a.b[#-1]');
SELECT json_extract('{"a": {"b": [10, 20, 30]}}', '$.a.x');
SELECT json_extract('{"a": "text"}', '$.a'), typeof(json_extract('{"a": 1.5}', '$.a'));
SELECT json_extract('{"a":true,"b":false}', '$.a'), json_extract('{"a":true,"b":false}', '$.b');
SELECT json_extract('{"a":1}', 'bad path');
SELECT json_type('{"a": [1, 2.5, "x", null, true, {}]}');
SELECT json_type('{"a": [1, 2.5, "x", null, true, {}]}', '$.a');
SELECT json_type('{"a": [1, 2.5, "x", null, true, {}]}', '$.a[0]'), json_type('[1, 2.5]', '$[1]'), json_type('["x"]', '$[0]'), json_type('[null]', '$[0]'), json_type('[true]', '$[0]'), json_type('[{}]', '$[0]');
SELECT json_array_length('[1, 2, 3]'), json_array_length('{"a": [1, 2]}', '$.a'), json_array_length('{}');
CREATE TABLE docs(id INTEGER PRIMARY KEY, body TEXT);
INSERT INTO docs(body) VALUES('{"name": "ann", "tags": ["x", "y"], "age": 30}'), ('{"name": "bob", "tags": [], "age": 25}'), ('{"name": "cat", "age": null}');
SELECT json_extract(json_object('k', json_array(1, 2)), '$.k[1]');
SELECT json_array(1, 2) = '[1,2]';
