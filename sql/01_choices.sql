-- sqlrank.choice(value, allowed, parameter)
--
-- Returns value when it is one of the allowed strings; otherwise raises an
-- error that names the parameter, the value found and the values expected.
-- Every macro with a "kind" parameter validates through this, so a typo such
-- as gain := 'expo' fails loudly instead of silently picking a default.
--
--   sqlrank.choice('exp', ['linear', 'exp'], 'gain')   -> 'exp'
--   sqlrank.choice('cubic', ['linear', 'exp'], 'gain') -> error:
--     sqlrank: unknown gain 'cubic' (expected one of: linear, exp)
CREATE OR REPLACE MACRO sqlrank.choice(value, allowed, parameter) AS
    CASE
        WHEN list_contains(allowed, value) THEN value
        ELSE error('sqlrank: unknown ' || parameter || ' ''' || coalesce(CAST(value AS VARCHAR), 'NULL')
                   || ''' (expected one of: ' || array_to_string(allowed, ', ') || ')')
    END;
