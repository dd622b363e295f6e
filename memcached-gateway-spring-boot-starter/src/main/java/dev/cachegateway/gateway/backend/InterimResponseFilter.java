package dev.cachegateway.gateway.backend;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * Drops the interim answers a backend may send before its final one
 * ({@code 102 Processing}, {@code 103 Early
 * Hints}), as RFC 9110 (15.2) lets a client do. Netty decodes each as an answer of its
 * own, but Reactor Netty skips only {@code 100 Continue} and takes any other 1xx for the
 * final answer; the client would get a 1xx and then wait for an answer that never comes.
 * {@code 101 Switching Protocols} is final and goes on.
 */
final class InterimResponseFilter extends ChannelInboundHandlerAdapter {

    static final String NAME = "gateway.interimResponseFilter";

    private boolean inInterim;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpResponse response && isInterim(response.status())) {
            inInterim = true;
        }
        if (!inInterim) {
            ctx.fireChannelRead(msg);
            return;
        }
        // An interim answer has no body: its end comes right after its head.
        if (msg instanceof LastHttpContent) {
            inInterim = false;
        }
        ReferenceCountUtil.release(msg);
    }

    private static boolean isInterim(HttpResponseStatus status) {
        return status.codeClass() == HttpStatusClass.INFORMATIONAL
                && status.code() != HttpResponseStatus.SWITCHING_PROTOCOLS.code();
    }

}
