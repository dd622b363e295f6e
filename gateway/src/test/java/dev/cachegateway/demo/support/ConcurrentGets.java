package dev.cachegateway.demo.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;

/**
 * GETs sent all at once, each on a connection of its own, for tests of what concurrent
 * requests share. Every request has its own deadline, and one that gets no answer fails
 * the test with what became of it and of the others.
 */
public final class ConcurrentGets {

    /**
     * How long one request may take: the slowest test backend's delay plus a lock
     * timeout, on a loaded machine.
     */
    static final Duration ANSWER_DEADLINE = Duration.ofSeconds(15);

    // The JDK's client, on threads of its own: the gateway's clients never share its
    // event loops, and a test client that did could hold up the gateway, or be held up by
    // it, in ways no real client can.
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /**
     * One GET of {@code uri}, with these header names and values, and its answer's body
     * read.
     */
    public Mono<ResponseEntity<byte[]>> get(String uri, String... headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(uri)).timeout(ANSWER_DEADLINE);
        HttpRequest request = (headers.length > 0 ? builder.headers(headers) : builder).build();
        return Mono.fromFuture(() -> client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()))
            .map(ConcurrentGets::entity);
    }

    private static ResponseEntity<byte[]> entity(HttpResponse<byte[]> response) {
        HttpHeaders headers = new HttpHeaders();
        response.headers().map().forEach(headers::addAll);
        return ResponseEntity.status(response.statusCode()).headers(headers).body(response.body());
    }

    /**
     * {@code count} GETs at once, the i-th of {@code uriOf(i)}, each with these header
     * names and values; the answers in the order they came.
     */
    public List<ResponseEntity<byte[]>> getAll(int count, IntFunction<String> uriOf, String... headers) {
        List<Answer> answers = Flux.range(0, count)
            .flatMap(i -> get(uriOf.apply(i), headers).map(entity -> new Answer(i, entity, null))
                .onErrorResume(failure -> Mono.just(new Answer(i, null, failure))), count)
            .collectList()
            .block(ANSWER_DEADLINE.plusSeconds(5));
        List<Answer> failed = Objects.requireNonNull(answers)
            .stream()
            .filter(answer -> answer.entity() == null)
            .toList();
        if (!failed.isEmpty()) {
            throw new AssertionError(failed.size() + " of " + count + " requests got no answer: "
                    + failed.stream()
                        .map(answer -> "#" + answer.index() + " " + answer.failure())
                        .collect(Collectors.joining("; "))
                    + "; the others were " + outcomes(answers));
        }
        return answers.stream().map(Answer::entity).map(Objects::requireNonNull).toList();
    }

    private static Map<String, Long> outcomes(List<Answer> answers) {
        return answers.stream()
            .filter(answer -> answer.entity() != null)
            .map(answer -> answer.entity().getStatusCode().value() + " "
                    + answer.entity().getHeaders().getFirst("X-Cache"))
            .collect(Collectors.groupingBy(outcome -> outcome, Collectors.counting()));
    }

    private record Answer(int index, @Nullable ResponseEntity<byte[]> entity, @Nullable Throwable failure) {
    }

}
