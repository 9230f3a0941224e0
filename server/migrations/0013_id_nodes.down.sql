DROP TABLE id_nodes;
