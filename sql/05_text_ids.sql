-- sqlrank.with_text_ids(table_name) -> the table, its query_id and doc_id as VARCHAR
--
-- Ids are text, compared byte for byte as trec_eval compares them: an INTEGER
-- id 7 is the id '7', as in the Python API (and 07 stays apart from 7). Every
-- macro that reads a user's qrels or run reads it through this one, so the two
-- may type their ids differently (INTEGER in one, VARCHAR in the other) and
-- still match, equal ids hash equally on both sides (judged_ranking marks the
-- judged documents by hash), and doc ids break score ties in text order
-- ('9' before '10' descending). For VARCHAR ids the casts are no-ops that
-- DuckDB drops, so a scan feeding a window stays a plain scan.
--
--   run (query_id INTEGER 1, doc_id INTEGER 10, score 0.5)
--   SELECT * FROM sqlrank.with_text_ids('run') -> ('1', '10', 0.5)
CREATE OR REPLACE MACRO sqlrank.with_text_ids(table_name) AS TABLE
    SELECT * REPLACE (CAST(query_id AS VARCHAR) AS query_id, CAST(doc_id AS VARCHAR) AS doc_id)
    FROM query_table(table_name);
