import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.oplog.Oplog;
import org.h2.mvstore.MVStore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Starts mongo-java-server on a loopback port, for development, tests and the benchmark
 * (ARCHITECTURE.md "Local infrastructure"). Started and stopped by tools/infra/infra.sh.
 *
 * <pre>
 *   java -cp 'lib/*:classes' OrquestraStore --port 27017 --backend h2 --file .local/store/orquestra.mv
 *   java -cp 'lib/*:classes' OrquestraStore --port 27018 --backend memory
 * </pre>
 *
 * Backends, chosen by measurement (docs/performance.md): "h2" persists to one MVStore file, so data
 * survives a restart of `npm start`, but answers non-unique filters by scanning stored documents
 * (slow past tens of thousands); "memory" keeps everything on the heap and is several times faster
 * at scans, which is why the test suite and the benchmark use it. Both keep MongoDB's
 * single-document atomicity (proved by libs/platform's store-guarantees test).
 *
 * The server reports MongoDB 5.0 wire semantics, which the Node.js driver 6 requires.
 *
 * The databases serialize explicit collection creation and drops with implicit creation (an
 * insert or createIndexes on a new collection). mongo-java-server 1.47 synchronizes only the
 * implicit path on the database, so an explicit `create` racing it (two replicas of a service
 * starting at once on a new database: mongoose's autoCreate beside the other's createIndexes)
 * added the collection twice, and the loser failed with "already existed in system.namespaces".
 * They also add an index under the collection's own lock: an insert (which holds that lock) walked
 * the collection's index list while createIndexes added to it, and failed with a
 * ConcurrentModificationException ("Unknown error: null"). Both are proved by the store-guarantees
 * int spec (libs/platform/src/mongo/store-guarantees.int.spec.ts).
 */
public final class OrquestraStore {
    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) usage("unexpected argument " + args[i]);
            options.put(args[i].substring(2), args[i + 1]);
        }
        String host = options.getOrDefault("host", "127.0.0.1");
        int port = Integer.parseInt(options.getOrDefault("port", "27017"));
        String backendName = options.getOrDefault("backend", "h2");

        final MongoBackend backend;
        switch (backendName) {
            case "memory":
                backend = new SerializedMemoryBackend();
                break;
            case "h2": {
                String file = options.get("file");
                if (file == null) usage("--backend h2 needs --file <path>");
                Path parent = Path.of(file).toAbsolutePath().getParent();
                if (parent != null) Files.createDirectories(parent);
                backend = new SerializedH2Backend(file);
                break;
            }
            default:
                usage("unknown backend " + backendName + " (memory or h2)");
                return;
        }
        backend.version(ServerVersion.MONGO_5_0);

        MongoServer server = new MongoServer(backend);
        server.bind(host, port);
        System.out.println("orquestra-store ready on " + host + ":" + port + " (backend " + backendName + ")");

        CountDownLatch stopped = new CountDownLatch(1);
        // SIGTERM (infra.sh down): stop taking connections, then close the backend, which for H2
        // writes the last changes to the file.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdownNow();
            stopped.countDown();
        }));
        stopped.await();
    }

    /** H2 databases whose collection creation and drops hold the database's lock (see the class comment). */
    static final class SerializedH2Backend extends H2Backend {
        SerializedH2Backend(String file) {
            super(file);
        }

        @Override
        protected MongoDatabase openOrCreateDatabase(String name) {
            return new SerializedH2Database(name, getMvStore(), getCursorRegistry());
        }
    }

    static final class SerializedH2Database extends H2Database {
        SerializedH2Database(String name, MVStore store, CursorRegistry cursors) {
            super(name, store, cursors);
        }

        @Override
        public synchronized MongoCollection<Object> createCollectionOrThrowIfExists(String name, CollectionOptions options) {
            return super.createCollectionOrThrowIfExists(name, options);
        }

        /** The database's lock, then the collection's (inserts take only the latter, and never the former inside it). */
        @Override
        protected synchronized void addIndex(Document description) {
            String name = collectionNamed(this, description);
            underCollectionLock(name.isEmpty() ? null : resolveCollection(name, false), () -> super.addIndex(description));
        }

        @Override
        public synchronized void dropCollection(String name, Oplog oplog) {
            super.dropCollection(name, oplog);
        }

        @Override
        public synchronized void drop(Oplog oplog) {
            super.drop(oplog);
        }
    }

    /** Memory databases with the same serialization as the H2 ones. */
    static final class SerializedMemoryBackend extends MemoryBackend {
        @Override
        public MemoryDatabase openOrCreateDatabase(String name) {
            return new SerializedMemoryDatabase(name, getCursorRegistry());
        }
    }

    static final class SerializedMemoryDatabase extends MemoryDatabase {
        SerializedMemoryDatabase(String name, CursorRegistry cursors) {
            super(name, cursors);
        }

        @Override
        public synchronized MongoCollection<Integer> createCollectionOrThrowIfExists(String name, CollectionOptions options) {
            return super.createCollectionOrThrowIfExists(name, options);
        }

        /** The database's lock, then the collection's (inserts take only the latter, and never the former inside it). */
        @Override
        protected synchronized void addIndex(Document description) {
            String name = collectionNamed(this, description);
            underCollectionLock(name.isEmpty() ? null : resolveCollection(name, false), () -> super.addIndex(description));
        }

        @Override
        public synchronized void dropCollection(String name, Oplog oplog) {
            super.dropCollection(name, oplog);
        }

        @Override
        public synchronized void drop(Oplog oplog) {
            super.drop(oplog);
        }
    }

    /** The collection an index description names (`ns` is `<database>.<collection>`), or "" for another database's. */
    static String collectionNamed(MongoDatabase database, Document description) {
        Object namespace = description.get("ns");
        String prefix = database.getDatabaseName() + ".";
        return namespace != null && namespace.toString().startsWith(prefix) ? namespace.toString().substring(prefix.length()) : "";
    }

    /**
     * Runs `action` (the database's lock held) under the collection's lock too. No collection yet:
     * nobody else can hold it (collections are created under the database's lock).
     */
    static void underCollectionLock(MongoCollection<?> collection, Runnable action) {
        if (collection == null) {
            action.run();
            return;
        }
        synchronized (collection) {
            action.run();
        }
    }

    private static void usage(String problem) {
        System.err.println("orquestra-store: " + problem);
        System.err.println("usage: OrquestraStore [--host 127.0.0.1] [--port 27017] [--backend h2|memory] [--file path]");
        System.exit(2);
    }
}
