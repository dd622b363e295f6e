package dev.cachegateway.gateway.server;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpServerCodec;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

import org.springframework.boot.reactor.netty.NettyServerCustomizer;

/**
 * Puts a {@link RequestFramingGuard} behind the HTTP/1.1 decoder of every connection the
 * gateway accepts.
 */
class RequestFramingCustomizer implements NettyServerCustomizer {

    private final long maxBodySize;

    RequestFramingCustomizer(RequestProperties properties) {
        this.maxBodySize = properties.getMaxBodySize().toBytes();
    }

    @Override
    public HttpServer apply(HttpServer server) {
        return server.doOnChannelInit((observer, channel, address) -> {
            ChannelPipeline pipeline = channel.pipeline();
            if (pipeline.get(NettyPipeline.HttpCodec) instanceof HttpServerCodec) {
                pipeline.addAfter(NettyPipeline.HttpCodec, RequestFramingGuard.NAME,
                        new RequestFramingGuard(maxBodySize));
            }
        });
    }

}
