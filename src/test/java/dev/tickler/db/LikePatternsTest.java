package dev.tickler.db;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** LIKE patterns that match the text as given: wildcards and the escape character are escaped. */
class LikePatternsTest {

    @Test
    void likeWildcardsAndTheEscapeCharacterAreEscaped() {
        assertThat(LikePatterns.containing("a%b_c\\d")).isEqualTo("%a\\%b\\_c\\\\d%");
        assertThat(LikePatterns.startingWith("trial_")).isEqualTo("trial\\_%");
        assertThat(LikePatterns.containing("plain text")).isEqualTo("%plain text%");
    }
}
