package dev.cachegateway.gateway.cache.miss;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import dev.cachegateway.gateway.cache.miss.InFlightRequests.Ticket;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

class InFlightRequestsTests {

    private final InFlightRequests inFlight = new InFlightRequests();

    @Test
    void makesTheFirstRequestForAKeyTheLeaderAndTheNextOnesFollowers() {
        assertThat(inFlight.enter("/a").leads()).isTrue();
        assertThat(inFlight.enter("/a").leads()).isFalse();
        assertThat(inFlight.enter("/b").leads()).isTrue();
    }

    @Test
    void handsTheLeadersAnswerToEveryFollower() {
        Ticket leader = inFlight.enter("/a");
        Ticket first = inFlight.enter("/a");
        Ticket second = inFlight.enter("/a");
        CapturedResponse answer = answer();

        leader.share(answer);

        StepVerifier.create(first.answer()).expectNext(answer).verifyComplete();
        StepVerifier.create(second.answer()).expectNext(answer).verifyComplete();
    }

    @Test
    void releasesFollowersEmptyWhenTheLeaderHasNothingToShare() {
        Ticket leader = inFlight.enter("/a");
        Ticket follower = inFlight.enter("/a");

        leader.release();

        StepVerifier.create(follower.answer()).expectComplete().verify(Duration.ofSeconds(1));
    }

    @Test
    void letsNoRequestAfterAWriteJoinTheLeadFromBeforeItWhileItsFollowersKeepTheirAnswer() {
        Ticket leader = inFlight.enter("/a");
        Ticket before = inFlight.enter("/a");

        inFlight.forget("/a");
        Ticket after = inFlight.enter("/a");
        CapturedResponse answer = answer();
        leader.share(answer);
        leader.end();

        assertThat(after.leads()).isTrue();
        assertThat(inFlight.size()).as("the old lead's end leaves the new lead in place").isOne();
        StepVerifier.create(before.answer()).expectNext(answer).verifyComplete();
    }

    @Test
    void handsFollowersTheLeadersFenceAndLetsOneThatLeavesTakeTheLeadWithIt() {
        Ticket leader = inFlight.enter("/a");
        Ticket follower = inFlight.enter("/a");
        WriteFences.Fence fence = new WriteFences.Fence("/a", "", 1L);

        leader.fenced(fence);
        follower.leave();

        StepVerifier.create(follower.fence()).expectNext(fence).verifyComplete();
        assertThat(inFlight.enter("/a").leads()).isTrue();
    }

    @Test
    void givesFollowersNoFenceWhenTheLeaderEndsBeforeTakingOne() {
        Ticket leader = inFlight.enter("/a");
        Ticket follower = inFlight.enter("/a");

        leader.release();

        StepVerifier.create(follower.fence()).expectComplete().verify(Duration.ofSeconds(1));
    }

    @Test
    void endsTheLeadSoThatTheNextRequestLeadsAgain() {
        Ticket leader = inFlight.enter("/a");
        leader.share(answer());
        leader.release();
        leader.end();

        assertThat(inFlight.size()).isZero();
        assertThat(inFlight.enter("/a").leads()).isTrue();
    }

    @Test
    void endsALeadThatSharedNothingWhenItIsReleased() {
        Ticket leader = inFlight.enter("/a");

        assertThat(leader.release()).isTrue();
        // Still nothing shared: a lead ended by the wrapping doFinally must let its lock go all the same.
        assertThat(leader.release()).isTrue();
        assertThat(inFlight.enter("/a").leads()).isTrue();
    }

    @Test
    void keepsALeadThatSharedAnAnswerUntilItEnds() {
        Ticket leader = inFlight.enter("/b");
        leader.share(new CapturedResponse(HttpStatus.OK, new HttpHeaders(), new byte[0]));

        assertThat(leader.release()).isFalse();
        assertThat(leader.release()).isFalse();
    }

    @Test
    void letsARequestFollowOnlyWhileALeaderIsInFlight() {
        assertThat(inFlight.follow("/a")).isEmpty();
        Ticket leader = inFlight.enter("/a");

        assertThat(inFlight.follow("/a").orElseThrow().leads()).isFalse();
        leader.release();
        assertThat(inFlight.follow("/a")).isEmpty();
    }

    @Test
    void keepsTheSharedAnswerWhenTheLeaderIsReleasedAfterSharing() {
        Ticket leader = inFlight.enter("/a");
        Ticket follower = inFlight.enter("/a");
        CapturedResponse answer = answer();

        leader.share(answer);
        leader.release();

        StepVerifier.create(follower.answer()).expectNext(answer).verifyComplete();
    }

    @Test
    void keepsTheSharedAnswerForRequestsThatArriveWhileItIsBeingStored() {
        Ticket leader = inFlight.enter("/a");
        CapturedResponse answer = answer();

        leader.share(answer);
        leader.release();
        Ticket late = inFlight.enter("/a");

        assertThat(late.leads()).isFalse();
        StepVerifier.create(late.answer()).expectNext(answer).verifyComplete();
        leader.end();
        assertThat(inFlight.enter("/a").leads()).isTrue();
    }

    private static CapturedResponse answer() {
        return new CapturedResponse(HttpStatus.OK, new HttpHeaders(), new byte[] {1});
    }
}
