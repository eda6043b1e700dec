import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.ServerVersion;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

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
                backend = new MemoryBackend();
                break;
            case "h2": {
                String file = options.get("file");
                if (file == null) usage("--backend h2 needs --file <path>");
                Path parent = Path.of(file).toAbsolutePath().getParent();
                if (parent != null) Files.createDirectories(parent);
                backend = new H2Backend(file);
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

    private static void usage(String problem) {
        System.err.println("orquestra-store: " + problem);
        System.err.println("usage: OrquestraStore [--host 127.0.0.1] [--port 27017] [--backend h2|memory] [--file path]");
        System.exit(2);
    }
}
