package dev.cachegateway.demo.history;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A gateway's meters as its metrics endpoint tells them, the same for a gateway in this
 * JVM and one in a process of its own.
 */
final class GatewayMeters {

    private static final Pattern VALUE = Pattern.compile("\"value\":([0-9.Ee+-]+)");

    private static final HttpClient http = HttpClient.newHttpClient();

    private GatewayMeters() {
    }

    /**
     * The value of {@code meter} with {@code tags} ({@code name:value}) on the gateway at
     * {@code management}.
     */
    static double value(String management, String meter, String... tags) throws IOException, InterruptedException {
        StringBuilder uri = new StringBuilder(management).append("/actuator/metrics/").append(meter);
        for (int i = 0; i < tags.length; i++) {
            uri.append(i == 0 ? '?' : '&').append("tag=").append(URLEncoder.encode(tags[i], StandardCharsets.UTF_8));
        }
        String body = http
            .send(HttpRequest.newBuilder(URI.create(uri.toString())).build(), HttpResponse.BodyHandlers.ofString())
            .body();
        Matcher value = VALUE.matcher(body);
        if (!value.find()) {
            throw new IllegalStateException("No value in " + body);
        }
        return Double.parseDouble(value.group(1));
    }

    /** The same, summed over every gateway. */
    static double sum(List<String> managements, String meter, String... tags) throws IOException, InterruptedException {
        double sum = 0;
        for (String management : managements) {
            sum += value(management, meter, tags);
        }
        return sum;
    }

}
