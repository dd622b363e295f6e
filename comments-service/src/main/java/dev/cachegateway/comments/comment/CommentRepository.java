package dev.cachegateway.comments.comment;

import java.util.Collections;
import java.util.List;

import org.springframework.stereotype.Repository;

/**
 * The one source of the API's data. Like the Sinatra app, it answers with the same fixed
 * comment whatever id is asked for, so every response is the same bytes and the benchmark
 * measures serving, not data access.
 */
@Repository
public class CommentRepository {

    static final int COMMENTS_PER_USER = 25;

    private static final Comment COMMENT = new Comment(2, "paul",
            "this is a test comment to see how this thing works.");

    private static final List<Comment> USER_COMMENTS = Collections.nCopies(COMMENTS_PER_USER, COMMENT);

    public Comment findById(String id) {
        return COMMENT;
    }

    public List<Comment> findByUserId(String userId) {
        return USER_COMMENTS;
    }

}
