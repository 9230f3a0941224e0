import type { RowDataPacket } from 'mysql2/promise';

/** One row of a query, typed as the columns it selects. */
export type Packet<T> = RowDataPacket & T;

/** A query's rows, typed as the columns it selects. */
export type Rows<T> = Packet<T>[];
