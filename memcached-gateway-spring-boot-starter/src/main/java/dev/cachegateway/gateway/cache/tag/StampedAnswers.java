package dev.cachegateway.gateway.cache.tag;

import java.util.List;

import dev.cachegateway.gateway.cache.response.CapturedResponse;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;

/**
 * An answer about to be stored, with the generations of its tags in its
 * {@value ItemTags#HEADER} header, where its item format records them. A header of that
 * name from the backend is never stored.
 */
public final class StampedAnswers {

    private final TagGenerations generations;

    public StampedAnswers(TagGenerations generations) {
        this.generations = generations;
    }

    /**
     * {@code answer} with the generations of {@code names}, if {@code recorded}; empty if
     * a purge of one of them may have come since {@code since}, when the backend was
     * asked, or memcached could not say.
     */
    public Mono<CapturedResponse> stamp(CapturedResponse answer, List<String> names, boolean recorded, long since) {
        if (names.isEmpty() || !recorded) {
            return Mono.just(answer.headers().containsHeader(ItemTags.HEADER) ? with(answer, null) : answer);
        }
        return generations.stamp(names, since)
            .map(stamps -> with(answer, ItemTags.header(stamps)))
            .onErrorResume(failure -> Mono.empty());
    }

    private static CapturedResponse with(CapturedResponse answer, @Nullable String tags) {
        HttpHeaders headers = HttpHeaders.copyOf(answer.headers());
        if (tags == null) {
            headers.remove(ItemTags.HEADER);
        }
        else {
            headers.set(ItemTags.HEADER, tags);
        }
        return new CapturedResponse(answer.status(), headers, answer.body());
    }

}
