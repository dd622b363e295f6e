package dev.cachegateway.gateway.cache.response;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

class HeldAnswerTests {

    @ParameterizedTest(name = "Age {0}, held {1} ms: Age {2}")
    @CsvSource(nullValues = "none", textBlock = """
            5,    2500, 7
            none, 1000, 1
            none, 3999, 3
            junk, 2000, 2
            """)
    void addsTheWholeSecondsItWasHeldToItsAge(String age, long heldMillis, String aged) {
        HttpHeaders headers = new HttpHeaders();
        if (age != null) {
            headers.set(HttpHeaders.AGE, age);
        }
        CapturedResponse answer = new CapturedResponse(HttpStatus.OK, headers, new byte[] { 1 });

        CapturedResponse held = HeldAnswer.aged(answer, heldMillis);

        assertThat(held.headers().getFirst(HttpHeaders.AGE)).isEqualTo(aged);
        assertThat(answer.headers().getFirst(HttpHeaders.AGE)).as("the shared answer itself").isEqualTo(age);
    }

    @Test
    void handsOnAnAnswerHeldUnderASecondAsItIs() {
        CapturedResponse answer = new CapturedResponse(HttpStatus.OK, new HttpHeaders(), new byte[] { 1 });

        assertThat(HeldAnswer.aged(answer, 999)).isSameAs(answer);
    }

    // A gateway paused (SIGSTOP, a long collection) while the leader's answer waited to
    // be read shares it late: the time it waited shows only in its Date. The history
    // checker found a follower told Age 0 at 1.3 s.
    @ParameterizedTest(name = "Date {0} s ago, Age {1}, held {2} ms: Age {3}")
    @CsvSource(nullValues = "none", textBlock = """
            5, none, 0,    5
            5, 7,    1000, 8
            2, 7,    0,    7
            3, 1,    1500, 3
            """)
    void countsTheTimeSinceItsDateWhereThatIsMore(long dateSecondsAgo, String age, long heldMillis, String aged) {
        long now = 1_800_000_000_000L;
        HttpHeaders headers = new HttpHeaders();
        headers.setDate(now - dateSecondsAgo * 1000);
        if (age != null) {
            headers.set(HttpHeaders.AGE, age);
        }
        CapturedResponse answer = new CapturedResponse(HttpStatus.OK, headers, new byte[] { 1 });

        assertThat(HeldAnswer.aged(answer, heldMillis, now).headers().getFirst(HttpHeaders.AGE)).isEqualTo(aged);
    }

}
