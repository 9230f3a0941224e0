DROP TABLE IF EXISTS reconciliations;
