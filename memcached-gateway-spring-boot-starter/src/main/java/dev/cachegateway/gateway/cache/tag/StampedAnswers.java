package dev.cachegateway.gateway.cache.tag;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.tag.ItemTags.Stamp;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
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
        return stamps(names, since).map(stamps -> with(answer, ItemTags.header(stamps)))
            .onErrorResume(failure -> Mono.empty());
    }

    /**
     * The stamps for an answer with {@code names} whose fetch asked the backend at
     * {@code since} ({@link System#nanoTime()}); empty if a purge of one of them may have
     * come since, so that the answer, which may predate it, is not stored. Each
     * generation is read from memcached, so that none that memcached lost is stamped. One
     * that this replica knew, as it is, from before the fetch is stamped; for any other
     * (first read during the fetch, made anew, or moved by a purge) the mark of the tag's
     * last purge is read after it, which a purge leaves before it moves the generation: a
     * purge that began after the fetch, or up to {@link TagStore#CLOCK_SKEW} before it by
     * this replica's clock, drops the store.
     */
    Mono<List<Stamp>> stamps(Collection<String> names, long since) {
        TagStore store = generations.store();
        long sinceMillis = System.currentTimeMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
        return Flux.fromIterable(names).flatMapSequential(name -> {
            Known before = generations.known(name);
            long sent = System.nanoTime();
            return store.readOrMake(name).flatMap(current -> {
                generations.observe(name, current, sent);
                Stamp stamp = new Stamp(name, current);
                if (before != null && before.unchangedSince(since, current)) {
                    return Mono.just(stamp);
                }
                return store.lastPurgeBefore(name, sinceMillis).filter(Boolean::booleanValue).map(yes -> stamp);
            });
        }).collectList().filter(stamps -> stamps.size() == names.size());
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
