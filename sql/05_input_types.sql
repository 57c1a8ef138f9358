-- sqlrank.with_text_ids(table_name) -> the table, its query_id and doc_id as VARCHAR
-- sqlrank.run_rows(run_table) -> the run, ids as VARCHAR and score as DOUBLE
-- sqlrank.judgments(qrels_table) -> (query_id VARCHAR, doc_id VARCHAR, relevance DOUBLE)
--
-- How the macros read a user's tables, whatever their column types, so that
-- the shell gives the numbers of the Python API (whose loaders type the
-- columns). Every macro that reads a user's run reads it through run_rows, and
-- every one that reads the qrels through judgments.
--
-- Ids are text, compared byte for byte as trec_eval compares them: an INTEGER
-- id 7 is the id '7', as in the Python API (and 07 stays apart from 7). So the
-- qrels and the run may type their ids differently (INTEGER in one, VARCHAR in
-- the other) and still match, equal ids hash equally on both sides
-- (judged_ranking marks the judged documents by hash), and doc ids break score
-- ties in text order ('9' before '10' descending). For VARCHAR ids the casts
-- are no-ops that DuckDB drops, so a scan feeding a window stays a plain scan.
--
-- Labels and scores are numbers: an INTEGER label is its DOUBLE, and text
-- holding a number (a CSV column read as VARCHAR) is that number, as the
-- Python API reads it (a score as trec_eval reads it with atof, before any
-- rounding to float32). Text that is not a number stops the query with
-- DuckDB's conversion error, which quotes the value ("Could not convert
-- string 'high' to DOUBLE"), rather than a binder error about a comparison.
--
--   run (query_id INTEGER 1, doc_id INTEGER 10, score '0.5')
--   SELECT * FROM sqlrank.run_rows('run') -> ('1', '10', 0.5)
--   qrels (query_id '1', doc_id 'a', relevance '2')
--   SELECT * FROM sqlrank.judgments('qrels') -> ('1', 'a', 2.0)
CREATE OR REPLACE MACRO sqlrank.with_text_ids(table_name) AS TABLE
    SELECT * REPLACE (CAST(query_id AS VARCHAR) AS query_id, CAST(doc_id AS VARCHAR) AS doc_id)
    FROM query_table(table_name);

CREATE OR REPLACE MACRO sqlrank.run_rows(run_table) AS TABLE
    SELECT * REPLACE (CAST(score AS DOUBLE) AS score)
    FROM sqlrank.with_text_ids(run_table);

CREATE OR REPLACE MACRO sqlrank.judgments(qrels_table) AS TABLE
    SELECT query_id, doc_id, CAST(relevance AS DOUBLE) AS relevance
    FROM sqlrank.with_text_ids(qrels_table);
