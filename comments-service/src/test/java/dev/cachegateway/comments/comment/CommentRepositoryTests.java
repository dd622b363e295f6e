package dev.cachegateway.comments.comment;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CommentRepositoryTests {

    private final CommentRepository repository = new CommentRepository();

    @Test
    void findsTheSinatraCommentWhateverTheId() {
        Comment expected = new Comment(2, "paul", "this is a test comment to see how this thing works.");
        assertThat(repository.findById("1")).isEqualTo(expected);
        assertThat(repository.findById("abc")).isEqualTo(expected);
    }

    @Test
    void findsTwentyFiveCopiesOfThatCommentForAnyUser() {
        assertThat(repository.findByUserId("1")).hasSize(25).containsOnly(repository.findById("1"));
    }

}
