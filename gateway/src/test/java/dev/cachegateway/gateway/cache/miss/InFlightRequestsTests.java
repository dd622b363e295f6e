package dev.cachegateway.gateway.cache.miss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.cachegateway.gateway.cache.response.CapturedResponse;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

class InFlightRequestsTests {

    private final InFlightRequests inFlight = new InFlightRequests();

    @Test
    void makesTheFirstRequestForAKeyTheLeaderAndTheNextOnesFollowers() {
        assertThat(enter("/a").leads()).isTrue();
        assertThat(enter("/a").leads()).isFalse();
        assertThat(enter("/b").leads()).isTrue();
    }

    @Test
    void handsTheLeadersAnswerToEveryFollower() {
        Ticket leader = enter("/a");
        Ticket first = enter("/a");
        Ticket second = enter("/a");
        CapturedResponse answer = answer();

        leader.share(answer, System.currentTimeMillis());

        StepVerifier.create(first.answer()).expectNext(answer).verifyComplete();
        StepVerifier.create(second.answer()).expectNext(answer).verifyComplete();
    }

    @Test
    void releasesFollowersEmptyWhenTheLeaderHasNothingToShare() {
        Ticket leader = enter("/a");
        Ticket follower = enter("/a");

        leader.release();

        StepVerifier.create(follower.answer()).expectComplete().verify(Duration.ofSeconds(1));
    }

    @Test
    void letsNoRequestAfterAWriteJoinTheLeadFromBeforeItWhileItsFollowersKeepTheirAnswer() {
        Ticket leader = enter("/a");
        Ticket before = enter("/a");

        inFlight.forget("/a");
        Ticket after = enter("/a");
        CapturedResponse answer = answer();
        leader.share(answer, System.currentTimeMillis());
        leader.end();

        assertThat(after.leads()).isTrue();
        assertThat(inFlight.size()).as("the old lead's end leaves the new lead in place").isOne();
        StepVerifier.create(before.answer()).expectNext(answer).verifyComplete();
    }

    @Test
    void handsFollowersTheLeadersFenceAndLetsOneThatLeavesTakeTheLeadWithIt() {
        Ticket leader = enter("/a");
        Ticket follower = enter("/a");
        WriteFences.Fence fence = new WriteFences.Fence("/a", "", 1L);

        leader.fenced(fence);
        follower.leave();

        StepVerifier.create(follower.fence()).expectNext(fence).verifyComplete();
        assertThat(enter("/a").leads()).isTrue();
    }

    @Test
    void givesFollowersNoFenceWhenTheLeaderEndsBeforeTakingOne() {
        Ticket leader = enter("/a");
        Ticket follower = enter("/a");

        leader.release();

        StepVerifier.create(follower.fence()).expectComplete().verify(Duration.ofSeconds(1));
    }

    @Test
    void endsTheLeadSoThatTheNextRequestLooksMemcachedUpAgain() {
        Ticket leader = enter("/a");
        leader.share(answer(), System.currentTimeMillis());
        leader.release();
        leader.end();

        assertThat(inFlight.follow("/a")).isEmpty();
    }

    @Test
    void letsARequestWhoseLookupMissedJustBeforeTheStoreLandedFollowTheEndedLead() {
        Ticket leader = enter("/a");
        CapturedResponse answer = answer();
        leader.share(answer, System.currentTimeMillis());
        long lookedUpAt = System.nanoTime();
        leader.end();

        Ticket late = inFlight.enter("/a", lookedUpAt);

        assertThat(late.leads()).isFalse();
        StepVerifier.create(late.answer()).expectNext(answer).verifyComplete();
    }

    @Test
    void forgetsAnEndedLeadOnceItsGraceHasPassed() {
        Ticket leader = enter("/a");
        leader.share(answer(), System.currentTimeMillis());
        long lookedUpAt = System.nanoTime();
        leader.end();

        await().atMost(InFlightRequests.GRACE.plusSeconds(5)).until(() -> inFlight.size() == 0);
        assertThat(inFlight.enter("/a", lookedUpAt).leads()).isTrue();
    }

    @Test
    void letsARequestWhoseLookupWasSentAfterTheStoreEndedLeadAgain() {
        Ticket leader = enter("/a");
        leader.share(answer(), System.currentTimeMillis());
        leader.end();

        Ticket next = enter("/a");

        assertThat(next.leads()).isTrue();
        assertThat(enter("/a").leads()).as("a request after it follows the new lead").isFalse();
    }

    // A request whose lookup is sent now.
    private Ticket enter(String key) {
        return inFlight.enter(key, System.nanoTime());
    }

    @Test
    void endsALeadThatSharedNothingWhenItIsReleased() {
        Ticket leader = enter("/a");

        assertThat(leader.release()).isTrue();
        // Still nothing shared: a lead ended by the wrapping doFinally must let its lock
        // go all the same.
        assertThat(leader.release()).isTrue();
        assertThat(enter("/a").leads()).isTrue();
    }

    @Test
    void keepsALeadThatSharedAnAnswerUntilItEnds() {
        Ticket leader = enter("/b");
        leader.share(new CapturedResponse(HttpStatus.OK, new HttpHeaders(), new byte[0]), System.currentTimeMillis());

        assertThat(leader.release()).isFalse();
        assertThat(leader.release()).isFalse();
    }

    @Test
    void letsARequestFollowOnlyWhileALeaderIsInFlight() {
        assertThat(inFlight.follow("/a")).isEmpty();
        Ticket leader = enter("/a");

        assertThat(inFlight.follow("/a").orElseThrow().leads()).isFalse();
        leader.release();
        assertThat(inFlight.follow("/a")).isEmpty();
    }

    @Test
    void letsOnlyRequestsThatLookedUpFollowALeadWhoseClientLeft() {
        Ticket leader = enter("/a");
        Ticket joined = inFlight.follow("/a").orElseThrow();

        // The lead goes on for its followers and the next lookup, but a request that has
        // not looked memcached up may be for a variant memcached holds: it looks up
        // rather than wait for an answer nobody is waiting on.
        leader.clientLeft();

        assertThat(inFlight.follow("/a")).isEmpty();
        assertThat(enter("/a").leads()).isFalse();
        leader.share(answer(), System.currentTimeMillis());
        assertThat(joined.answer().block(Duration.ofSeconds(1))).isNotNull();
    }

    @Test
    void keepsTheSharedAnswerWhenTheLeaderIsReleasedAfterSharing() {
        Ticket leader = enter("/a");
        Ticket follower = enter("/a");
        CapturedResponse answer = answer();

        leader.share(answer, System.currentTimeMillis());
        leader.release();

        StepVerifier.create(follower.answer()).expectNext(answer).verifyComplete();
    }

    @Test
    void keepsTheSharedAnswerForRequestsThatArriveWhileItIsBeingStored() {
        Ticket leader = enter("/a");
        CapturedResponse answer = answer();

        leader.share(answer, System.currentTimeMillis());
        leader.release();
        Ticket late = enter("/a");

        assertThat(late.leads()).isFalse();
        StepVerifier.create(late.answer()).expectNext(answer).verifyComplete();
        leader.end();
        assertThat(enter("/a").leads()).as("a lookup sent after the store ended").isTrue();
    }

    // As a history with a gateway paused by SIGSTOP once showed (seed
    // 4028949163368090680):
    // a gateway that stalls between asking the backend and sharing the answer hands it on
    // as old as it is, from when the backend was asked (RFC 9111 4.2.3's response delay).
    @Test
    void agesASharedAnswerFromWhenTheLeaderAskedTheBackend() {
        Ticket leader = enter("/a");
        Ticket follower = enter("/a");
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.AGE, "5");

        leader.share(new CapturedResponse(HttpStatus.OK, headers, new byte[] { 1 }),
                System.currentTimeMillis() - 3_000);

        StepVerifier.create(follower.answer().map(shared -> shared.headers().getFirst(HttpHeaders.AGE)))
            .expectNext("8")
            .verifyComplete();
    }

    private static CapturedResponse answer() {
        return new CapturedResponse(HttpStatus.OK, new HttpHeaders(), new byte[] { 1 });
    }

}
