-- Waiting list (候补) for returned tickets (issue 16). One row per fan, session and price tier
-- while it is live (waiting or offered: `live` = 1; NULL once it ended, so a fan may join again
-- later and the ended rows stay as history). An offer is an ordinary pending order (order_id)
-- taken through the same Redis gate and MySQL claims as a purchase; its idempotency key is
-- 'wl/<entry id>', so an offer made twice (two runners, a crash and a rerun) is one order.
-- status (lifecycle/statuses.ts WAITLIST_STATUS): 1 waiting, 2 offered, 3 fulfilled (the offer
-- was paid), 4 lapsed (the offer expired unpaid), 5 declined, 6 left, 7 ended (could not be
-- offered any more: the fan reached the purchase limit, or the session stopped selling).
CREATE TABLE waitlist_entries (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  session_id BIGINT UNSIGNED NOT NULL,
  tier_id BIGINT UNSIGNED NOT NULL,
  user_id BIGINT UNSIGNED NOT NULL,
  quantity TINYINT UNSIGNED NOT NULL,
  status TINYINT UNSIGNED NOT NULL DEFAULT 1,
  live TINYINT UNSIGNED NULL DEFAULT 1,
  order_id BIGINT UNSIGNED NULL,
  created_at DATETIME(3) NOT NULL,
  offered_at DATETIME(3) NULL,
  ended_at DATETIME(3) NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uq_waitlist_live (session_id, tier_id, user_id, live),
  UNIQUE KEY uq_waitlist_order (order_id),
  KEY idx_waitlist_line (session_id, tier_id, status, id),
  KEY idx_waitlist_user (user_id, id),
  KEY idx_waitlist_status (status, session_id),
  CONSTRAINT fk_waitlist_session FOREIGN KEY (session_id) REFERENCES show_sessions (id),
  CONSTRAINT fk_waitlist_tier FOREIGN KEY (tier_id) REFERENCES price_tiers (id),
  CONSTRAINT chk_waitlist_status CHECK (status BETWEEN 1 AND 7),
  CONSTRAINT chk_waitlist_live CHECK ((status IN (1, 2) AND live = 1) OR (status > 2 AND live IS NULL)),
  CONSTRAINT chk_waitlist_quantity CHECK (quantity >= 1)
) ENGINE=InnoDB;
