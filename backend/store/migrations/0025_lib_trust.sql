-- Mundaneum workspace schema: the library's protection model and its people (issue 29,
-- items 1-5).
--
-- 1. A library open to guests: the guests of `serve --public` may post in it and below it
--    (and change what is there, passwords allowing); everywhere else they only read.
ALTER TABLE lib_nodes ADD COLUMN open_to_guests INTEGER NOT NULL DEFAULT 0;

-- 2. Who made each change of the undo journal ('' the owner: the window, the command line,
--    serve's signed-in owner; 'guest:...' a guest of serve --public) and how to name them,
--    so that under serve --public Undo takes back only a person's own change.
ALTER TABLE lib_undo ADD COLUMN actor TEXT NOT NULL DEFAULT '';
ALTER TABLE lib_undo ADD COLUMN actor_name TEXT NOT NULL DEFAULT '';

-- 3. The password hashes a change was made with (a JSON array): undoing it needs the same
--    password. The older column password held one hash; it is read as a one-element list.
ALTER TABLE lib_undo ADD COLUMN keys TEXT NOT NULL DEFAULT '[]';
UPDATE lib_undo SET keys = json_array(password) WHERE password IS NOT NULL;
