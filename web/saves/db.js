// IndexedDB, promised: one database "tapete" with the object stores the saves need. When the
// browser has no IndexedDB (or refuses to open it: some private modes), the same calls work on
// maps in memory, so a game goes on and `persistent` says it will not outlive the tab.

const NAME = "tapete";
const VERSION = 1;
/** Object stores: saved games (key `id`), records set aside (key `id`), and small facts (key). */
export const STORES = { games: "games", aside: "aside", meta: "meta" };

/** A write the browser refused, with why: "quota" (storage full) or "failed". */
export class StorageError extends Error {
  constructor(kind, cause) {
    super(`storage ${kind}: ${cause?.name || ""} ${cause?.message || cause || ""}`.trim());
    this.kind = kind;
    this.cause = cause;
  }
}

function isQuota(error) {
  const name = error && error.name;
  return name === "QuotaExceededError" || name === "NS_ERROR_DOM_QUOTA_REACHED" || (error && error.code === 22);
}

function wrap(error) {
  return error instanceof StorageError ? error : new StorageError(isQuota(error) ? "quota" : "failed", error);
}

function promised(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** The IndexedDB-backed database. */
class IdbDatabase {
  constructor(db) {
    this.db = db;
    this.persistent = true;
  }

  /** Run `work(stores)` in one transaction over `names`; resolves with its value once committed. */
  transact(names, mode, work) {
    return new Promise((resolve, reject) => {
      let tx;
      try {
        tx = this.db.transaction(names, mode);
      } catch (error) {
        reject(wrap(error));
        return;
      }
      const stores = Object.fromEntries(names.map((name) => [name, tx.objectStore(name)]));
      let value;
      let failed = null;
      tx.oncomplete = () => resolve(value);
      tx.onerror = (event) => {
        failed = failed || tx.error || event.target?.error;
      };
      tx.onabort = () => reject(wrap(failed || tx.error || new Error("transaction aborted")));
      Promise.resolve()
        .then(() => work(stores, promised))
        .then((result) => { value = result; }, (error) => {
          failed = error;
          try { tx.abort(); } catch { /* already finished */ }
        });
    });
  }

  get(name, key) {
    return this.transact([name], "readonly", (s) => promised(s[name].get(key)));
  }

  all(name) {
    return this.transact([name], "readonly", (s) => promised(s[name].getAll()));
  }

  put(name, value) {
    return this.transact([name], "readwrite", (s) => promised(s[name].put(value)));
  }

  delete(name, key) {
    return this.transact([name], "readwrite", (s) => promised(s[name].delete(key)));
  }
}

/** The same calls on maps, for a browser without IndexedDB: nothing outlives the tab. */
class MemoryDatabase {
  constructor() {
    this.maps = Object.fromEntries(Object.values(STORES).map((name) => [name, new Map()]));
    this.persistent = false;
  }

  keyOf(name, value) {
    return name === STORES.meta ? value.key : value.id;
  }

  async transact(names, _mode, work) {
    const stores = Object.fromEntries(names.map((name) => [name, new MemoryStore(this, name)]));
    return work(stores, (value) => value);
  }

  async get(name, key) {
    return structuredClone(this.maps[name].get(key));
  }

  async all(name) {
    return [...this.maps[name].values()].map((value) => structuredClone(value));
  }

  async put(name, value) {
    this.maps[name].set(this.keyOf(name, value), structuredClone(value));
  }

  async delete(name, key) {
    this.maps[name].delete(key);
  }
}

/** A store inside a MemoryDatabase transaction: the IDBObjectStore calls the saves use. */
class MemoryStore {
  constructor(db, name) {
    this.db = db;
    this.name = name;
  }

  get(key) { return structuredClone(this.db.maps[this.name].get(key)); }
  getAll() { return [...this.db.maps[this.name].values()].map((value) => structuredClone(value)); }
  put(value) { this.db.maps[this.name].set(this.db.keyOf(this.name, value), structuredClone(value)); }
  delete(key) { this.db.maps[this.name].delete(key); }
}

let opening = null;

/** The database, opened once (IndexedDB, else memory). */
export function openDatabase() {
  if (!opening) opening = openIdb().catch((error) => {
    console.warn("tapete: no IndexedDB, games are kept in memory only:", error);
    return new MemoryDatabase();
  });
  return opening;
}

function openIdb() {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === "undefined" || !indexedDB) {
      reject(new Error("IndexedDB is missing"));
      return;
    }
    let request;
    try {
      request = indexedDB.open(NAME, VERSION);
    } catch (error) {
      reject(error);
      return;
    }
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(STORES.games)) db.createObjectStore(STORES.games, { keyPath: "id" });
      if (!db.objectStoreNames.contains(STORES.aside)) db.createObjectStore(STORES.aside, { keyPath: "id" });
      if (!db.objectStoreNames.contains(STORES.meta)) db.createObjectStore(STORES.meta, { keyPath: "key" });
    };
    request.onsuccess = () => {
      const db = request.result;
      // another tab upgrading the database (a newer build) asks us to let go
      db.onversionchange = () => db.close();
      resolve(new IdbDatabase(db));
    };
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error("IndexedDB is blocked by another tab"));
  });
}
