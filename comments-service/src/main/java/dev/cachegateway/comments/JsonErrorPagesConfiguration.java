package dev.cachegateway.comments;

import org.apache.catalina.core.StandardHost;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Requests that Tomcat rejects before they reach Spring MVC (a NUL or an encoded slash in
 * the path, invalid percent-encoding, characters HTTP forbids, an over-long request line)
 * get Tomcat's error report. This makes it JSON, like every other error of this API.
 */
@Configuration(proxyBeanMethods = false)
class JsonErrorPagesConfiguration {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemJsonErrorReports() {
        return factory -> factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(ProblemJsonErrorReportValve.class.getName());
            }
        });
    }

}
