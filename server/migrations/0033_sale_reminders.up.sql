-- 开售提醒 (issue 17 #13): a fan asks to be told when a show goes on sale. One row per fan and
-- show (asking again changes nothing). The sale-open job claims a row by setting notified_at
-- (UPDATE ... WHERE notified_at IS NULL) in the transaction that writes the notice's outbox
-- message, so a second run or another instance sends nothing more. The count of rows of a show
-- is its 想看 count.
CREATE TABLE sale_reminders (
  user_id BIGINT UNSIGNED NOT NULL,
  show_id BIGINT UNSIGNED NOT NULL,
  created_at DATETIME(3) NOT NULL,
  -- the session whose opening the notice announced, and when it was enqueued
  notified_session_id BIGINT UNSIGNED NULL,
  notified_at DATETIME(3) NULL,
  PRIMARY KEY (user_id, show_id),
  KEY idx_sale_reminders_due (show_id, notified_at),
  CONSTRAINT fk_sale_reminder_show FOREIGN KEY (show_id) REFERENCES shows (id) ON DELETE CASCADE
) ENGINE=InnoDB;
