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
        CapturedResponse answer = new CapturedResponse(HttpStatus.OK, headers, new byte[] {1});

        CapturedResponse held = HeldAnswer.aged(answer, heldMillis);

        assertThat(held.headers().getFirst(HttpHeaders.AGE)).isEqualTo(aged);
        assertThat(answer.headers().getFirst(HttpHeaders.AGE)).as("the shared answer itself").isEqualTo(age);
    }

    @Test
    void handsOnAnAnswerHeldUnderASecondAsItIs() {
        CapturedResponse answer = new CapturedResponse(HttpStatus.OK, new HttpHeaders(), new byte[] {1});

        assertThat(HeldAnswer.aged(answer, 999)).isSameAs(answer);
    }
}
