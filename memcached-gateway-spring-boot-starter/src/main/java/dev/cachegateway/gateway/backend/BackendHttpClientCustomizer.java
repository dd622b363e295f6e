package dev.cachegateway.gateway.backend;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.util.AttributeKey;
import reactor.netty.NettyPipeline;
import reactor.netty.http.client.HttpClient;

import org.springframework.cloud.gateway.config.HttpClientCustomizer;

/**
 * The gateway's client to its backends, made safe against odd answers: interim 1xx
 * answers are skipped, a connection whose answer overran its framing is closed, and each
 * request notes whether its connection was reused, for
 * {@link ReusedConnectionRetryFilter}.
 */
class BackendHttpClientCustomizer implements HttpClientCustomizer {

    /** Set on a connection once a request has been sent over it. */
    private static final AttributeKey<Boolean> USED = AttributeKey.valueOf("gateway.backend.used");

    @Override
    public HttpClient customize(HttpClient client) {
        return client.doOnChannelInit((observer, channel, address) -> {
            ChannelPipeline pipeline = channel.pipeline();
            // HTTP/1.1 only: an HTTP/2 connection frames each answer by itself.
            if (pipeline.get(NettyPipeline.HttpCodec) instanceof HttpClientCodec) {
                ResponseFramingGuard guard = new ResponseFramingGuard();
                pipeline.addAfter(NettyPipeline.HttpCodec, ResponseFramingGuard.NAME, guard);
                pipeline.addBefore(NettyPipeline.HttpCodec, ResponseFramingGuard.NAME + ".rawBytes", guard.rawBytes());
                pipeline.addAfter(NettyPipeline.HttpCodec, InterimResponseFilter.NAME, new InterimResponseFilter());
            }
        }).doOnRequest((request, connection) -> {
            boolean reused = connection.channel().attr(USED).getAndSet(Boolean.TRUE) != null;
            ReusedConnectionRetryFilter.Attempt.note(request.currentContextView(), reused);
        });
    }

}
