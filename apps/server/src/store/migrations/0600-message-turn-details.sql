-- What an assistant turn keeps beside a message's text, as JSON (NULL when there is none): a model message's
-- citations (the document passages its answer drew on) and tool calls (with their results), and a user
-- message's context (the knowledge snippets the model was given with it).
ALTER TABLE messages ADD COLUMN citations TEXT;
ALTER TABLE messages ADD COLUMN tool_calls TEXT;
ALTER TABLE messages ADD COLUMN context TEXT;
