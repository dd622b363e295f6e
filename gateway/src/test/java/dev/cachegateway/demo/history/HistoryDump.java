package dev.cachegateway.demo.history;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import dev.cachegateway.demo.history.VersionedOrigin.Call;

/**
 * A whole history written out, each request, origin call and fault in the order it began:
 * a violation's slice shows two seconds around it, and what led to it may have begun
 * before (a lead that waited out a lock, a call that outlived its client).
 */
final class HistoryDump {

    private static final Path DIRECTORY = Path.of("target", "histories");

    private HistoryDump() {
    }

    /** Writes the history of {@code run} and returns where. */
    static Path write(Object run, History history, List<Call> calls) throws IOException {
        List<Map.Entry<Long, String>> lines = new ArrayList<>();
        history.requests().forEach(r -> lines.add(Map.entry(r.startedAt(), r.toString())));
        calls.forEach(c -> lines.add(Map.entry(c.startedAt(), c.toString())));
        history.faults().forEach(f -> lines.add(Map.entry(f.startedAt(), "fault " + f)));
        lines.sort(Comparator.comparing(Map.Entry::getKey));
        Files.createDirectories(DIRECTORY);
        String name = run.toString().replaceAll("[^A-Za-z0-9-]+", "_");
        Path file = DIRECTORY.resolve(name + ".txt");
        // A seed replayed keeps each of its histories.
        for (int n = 2; Files.exists(file); n++) {
            file = DIRECTORY.resolve(name + "-" + n + ".txt");
        }
        Files.write(file, lines.stream().map(Map.Entry::getValue).toList());
        return file.toAbsolutePath();
    }

}
