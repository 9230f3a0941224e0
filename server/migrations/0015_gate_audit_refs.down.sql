-- The invite codes replaced by their references are not recoverable (that is the point): nothing to undo.
SELECT 1;
