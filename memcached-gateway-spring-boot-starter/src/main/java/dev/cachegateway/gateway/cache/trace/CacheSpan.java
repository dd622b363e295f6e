package dev.cachegateway.gateway.cache.trace;

/**
 * One of the cache's spans, started; its owner says what came of the step and ends it.
 */
public interface CacheSpan {

    /** What a span is where none is made: the request is not traced, or not sampled. */
    CacheSpan NONE = new CacheSpan() {
        @Override
        public void result(String result) {
        }

        @Override
        public void error(Throwable error) {
        }

        @Override
        public void end() {
        }
    };

    /** What came of the step, its {@code result} tag; {@code none} until said. */
    void result(String result);

    void error(Throwable error);

    void end();

}
