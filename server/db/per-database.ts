import type { Db } from './types';

/**
 * `make(db)` once per database, then the same value: for prepared statements (Drizzle builds the
 * query once, PostgreSQL plans it once per connection). A database that is closed and dropped takes
 * its value with it.
 */
export function perDatabase<T>(make: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) made.set(db, (value = make(db)));
    return value;
  };
}
