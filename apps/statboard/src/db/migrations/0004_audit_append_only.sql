-- Audit records are append-only against every way of removing them too: DELETE (row by row) and TRUNCATE
-- (which fires no row trigger) are refused by the database itself, as UPDATE already is.
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
