DROP TABLE IF EXISTS degrade_switches;
