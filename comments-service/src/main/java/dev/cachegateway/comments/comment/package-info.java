/**
 * The comments and their endpoints.
 */
@NullMarked
package dev.cachegateway.comments.comment;

import org.jspecify.annotations.NullMarked;
