export type ChangeKind = 'cancel' | 'postpone';

/** A session_changes row as mysql2 hands it (BIGINT ids as strings); only the repos see it. */
export interface ChangeRow {
  id: string;
  session_id: string;
  kind: ChangeKind;
  state: 'running' | 'done';
  reason: string;
  old_starts_at: Date;
  new_starts_at: Date | null;
  refund_until: Date | null;
  created_by: string;
  created_at: Date;
  finished_at: Date | null;
}
