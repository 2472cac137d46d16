-- Payload codec data keys: the runtime role (workers, API, CLI, MCP) reads them and adds the
-- first or next generation of a scope; it can never change or delete one, since every
-- history event encrypted under a key needs that key (wrapped as it was) to be read again.
REVOKE UPDATE, DELETE, TRUNCATE ON codec_data_keys FROM countersign_runtime;
