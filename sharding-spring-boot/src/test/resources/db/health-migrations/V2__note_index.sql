create index health_note_id on health_note (id);
