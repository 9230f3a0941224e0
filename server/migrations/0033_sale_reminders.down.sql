DROP TABLE IF EXISTS sale_reminders;
