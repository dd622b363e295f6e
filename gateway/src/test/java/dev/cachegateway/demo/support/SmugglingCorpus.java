package dev.cachegateway.demo.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The request smuggling corpus, {@code smuggling/corpus.txt}, written by
 * {@code e2e/smuggling_corpus.py}: each request with its name, its target still the
 * placeholder {@code __PATH__}.
 */
public final class SmugglingCorpus {

    /** One request of the corpus. */
    public record Case(String name, String text) {

        /** The request's bytes, aimed at {@code path}. */
        public byte[] bytes(String path) {
            return text.replace("__PATH__", path).getBytes(StandardCharsets.ISO_8859_1);
        }
    }

    private SmugglingCorpus() {
    }

    public static List<Case> cases() {
        try (InputStream in = SmugglingCorpus.class.getResourceAsStream("/smuggling/corpus.txt")) {
            if (in == null) {
                throw new IllegalStateException("smuggling/corpus.txt is not on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1).lines()
                .filter(line -> !line.startsWith("#") && !line.isBlank())
                .map(line -> new Case(line.substring(0, line.indexOf('\t')),
                        unescape(line.substring(line.indexOf('\t') + 1))))
                .toList();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static String unescape(String escaped) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < escaped.length(); i++) {
            char c = escaped.charAt(i);
            if (c != '\\') {
                out.write(c);
                continue;
            }
            char kind = escaped.charAt(++i);
            switch (kind) {
                case 'r' -> out.write('\r');
                case 'n' -> out.write('\n');
                case 't' -> out.write('\t');
                case '\\' -> out.write('\\');
                case 'x' -> {
                    out.write(Integer.parseInt(escaped.substring(i + 1, i + 3), 16));
                    i += 2;
                }
                default -> throw new IllegalArgumentException("Unknown escape \\" + kind + " in " + escaped);
            }
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

}
