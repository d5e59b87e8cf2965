const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `s` is a UUID: checked before a uuid column sees it, so a bad id is a 404, not a SQL error. */
export const isUuid = (s: string) => UUID.test(s);
