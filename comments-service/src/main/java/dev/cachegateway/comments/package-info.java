@NullMarked
package dev.cachegateway.comments;

import org.jspecify.annotations.NullMarked;
