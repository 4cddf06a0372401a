create index audit_note_text on audit_note (text);
