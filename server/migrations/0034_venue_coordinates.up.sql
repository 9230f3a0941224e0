-- A venue's place on the map (issue 17 #13), for the fan's 导航 (wx.openLocation): GCJ-02, the
-- coordinates WeChat's maps use. NULL until the organiser enters them; both or neither.
ALTER TABLE venues
  ADD COLUMN latitude DECIMAL(9, 6) NULL,
  ADD COLUMN longitude DECIMAL(9, 6) NULL,
  ADD CONSTRAINT chk_venue_latitude CHECK (latitude IS NULL OR latitude BETWEEN -90 AND 90),
  ADD CONSTRAINT chk_venue_longitude CHECK (longitude IS NULL OR longitude BETWEEN -180 AND 180),
  ADD CONSTRAINT chk_venue_coordinates CHECK ((latitude IS NULL) = (longitude IS NULL));
