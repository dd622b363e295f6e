package dev.cachegateway.gateway.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.cachegateway.gateway.cache.MemcachedCacheGatewayFilterFactory;
import dev.cachegateway.demo.support.ByteRecordingBackend;
import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.RawAnswers;
import dev.cachegateway.demo.support.RawAnswers.Answer;
import dev.cachegateway.demo.support.SmugglingCorpus;
import dev.cachegateway.demo.support.StrictHttp;
import org.junit.jupiter.api.Test;

import org.springframework.test.annotation.DirtiesContext;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The whole smuggling corpus, replayed over raw sockets against the gateway in front of a
 * backend that keeps every byte it gets, each request followed on its connection by a
 * last {@code GET} with {@code Connection: close}. The bytes are also read by
 * {@link StrictHttp}, as a careful backend would read them. For each request: every
 * answer is a backend's, another answer below 500, or a 400 with
 * {@code Connection: close} that ends the connection; requests that cannot be read one
 * way get that 400; and the backend gets exactly the requests the strict reading finds
 * before it, each with the same body, and not one more.
 */
@Import(RequestSmugglingCorpusTests.SmuggleRoute.class)
// Settings of its own make a gateway of its own, which no other class reuses.
@DirtiesContext
class RequestSmugglingCorpusTests extends CacheIntegrationTest {

    static final ByteRecordingBackend recorder = ByteRecordingBackend.startQuietly();

    private static final Pattern CASE = Pattern.compile("^/smuggle/(\\d+)(?:[/?].*)?$");

    /**
     * Chunk lines Netty reads more leniently than RFC 9112 (spaces before the size, junk
     * after it). The gateway forwards such a body with a Content-Length of its own, so
     * the backend still reads it one way.
     */
    private static final Set<String> READ_LENIENTLY = Set.of("chunk size with junk", "chunk size with leading space",
            "last chunk after spaces");

    @Test
    void refusesEveryAmbiguousRequestBeforeTheBackendAndForwardsTheRestUnchanged() throws Exception {
        List<SmugglingCorpus.Case> cases = SmugglingCorpus.cases();
        List<String> failures = new ArrayList<>();
        List<List<Answer>> answers = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            answers.add(RawAnswers.exchange(port, sent(cases.get(i), i)));
        }
        Map<Integer, List<StrictHttp.Request>> seen = new HashMap<>();
        for (StrictHttp.Request request : recorder.requests()) {
            Matcher matcher = CASE.matcher(request.target());
            if (matcher.matches()) {
                seen.computeIfAbsent(Integer.parseInt(matcher.group(1)), any -> new ArrayList<>()).add(request);
            }
            else {
                failures.add("the backend got a request for no case: " + request.method() + " " + request.target());
            }
        }
        int refused = 0;
        int reachedWhenAmbiguous = 0;
        for (int i = 0; i < cases.size(); i++) {
            SmugglingCorpus.Case corpusCase = cases.get(i);
            StrictHttp.Reading reading = StrictHttp.read(sent(corpusCase, i));
            List<StrictHttp.Request> got = seen.getOrDefault(i, List.of());
            boolean ambiguous = reading.requests().isEmpty();
            if (ambiguous && !got.isEmpty()) {
                System.out.println("Read leniently and forwarded: " + corpusCase.name());
                reachedWhenAmbiguous += READ_LENIENTLY.contains(corpusCase.name()) ? 0 : 1;
            }
            List<Answer> answered = answers.get(i);
            if (!answered.isEmpty() && refusal(answered.get(0))) {
                refused++;
            }
            String problem = verdict(corpusCase.name(), reading, answered, got);
            if (problem != null) {
                failures.add(corpusCase.name() + ": " + problem + "\n    answers: " + answered + "\n    backend got: "
                        + got.stream().map(r -> r.method() + " " + r.target() + " [" + r.bodyText() + "]").toList());
            }
        }
        System.out.printf("Smuggling corpus: %d requests, %d refused with 400 at once, %d ambiguous ones reached "
                + "the backend%n", cases.size(), refused, reachedWhenAmbiguous);
        assertThat(recorder.violations()).as("bytes the backend could not read as requests").isEmpty();
        assertThat(recorder.connectionsWithPartialRequests()).as("backend connections left mid-request").isZero();
        assertThat(failures).as("%d of %d requests", failures.size(), cases.size()).isEmpty();
        assertThat(reachedWhenAmbiguous).isZero();
    }

    private static String verdict(String name, StrictHttp.Reading reading, List<Answer> answers,
            List<StrictHttp.Request> got) {
        if (answers.isEmpty()) {
            return "no answer";
        }
        for (int a = 0; a < answers.size(); a++) {
            Answer answer = answers.get(a);
            if (answer.status() >= 500) {
                return "a " + answer.status();
            }
            if (refusal(answer) && a != answers.size() - 1) {
                return "answers after a refusal";
            }
        }
        List<String> answeredByBackend = answers.stream()
            .map(answer -> answer.header("X-Seen"))
            .filter(seen -> seen != null)
            .toList();
        if (!answeredByBackend.equals(got.stream().map(StrictHttp.Request::target).toList())) {
            return "the backend got requests the client got no answer to";
        }
        // What the backend got is what the strict reading finds, in order, bodies
        // included.
        int next = 0;
        for (StrictHttp.Request request : got) {
            while (next < reading.requests().size() && !same(reading.requests().get(next), request)) {
                next++;
            }
            if (next == reading.requests().size() && !READ_LENIENTLY.contains(name)) {
                return "the backend got " + request.method() + " " + request.target() + " [" + request.bodyText()
                        + "], which the strict reading does not find";
            }
            next++;
        }
        // Junk after a request that could be read ends the connection after its answer,
        // as it does here always; a request that cannot be read one way itself is
        // answered 400.
        if (reading.requests().isEmpty() && !READ_LENIENTLY.contains(name) && !refusal(answers.get(0))) {
            return "no 400 for a request that cannot be read one way (" + reading.error() + ")";
        }
        return null;
    }

    private static boolean same(StrictHttp.Request expected, StrictHttp.Request got) {
        return expected.method().equals(got.method()) && expected.target().equals(got.target())
                && Arrays.equals(expected.body(), got.body());
    }

    private static boolean refusal(Answer answer) {
        return answer.status() >= 400 && answer.status() != 404 && answer.closes() && answer.header("X-Seen") == null;
    }

    private static byte[] sent(SmugglingCorpus.Case corpusCase, int index) {
        String last = "GET /smuggle/" + index + "/end HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
        byte[] request = corpusCase.bytes("/smuggle/" + index);
        byte[] end = last.getBytes(StandardCharsets.ISO_8859_1);
        byte[] both = Arrays.copyOf(request, request.length + end.length);
        System.arraycopy(end, 0, both, request.length, end.length);
        return both;
    }

    /** {@code /smuggle/**}, a cached route, in front of the recording backend. */
    @TestConfiguration(proxyBeanMethods = false)
    static class SmuggleRoute {

        @Bean
        RouteLocator smuggleRoute(RouteLocatorBuilder routes, MemcachedCacheGatewayFilterFactory cache) {
            return routes.routes()
                .route("smuggle",
                        r -> r.path("/smuggle/**")
                            .filters(f -> f.filter(cache.apply(new MemcachedCacheGatewayFilterFactory.Config())))
                            .uri(recorder.uri()))
                .build();
        }

    }

}
