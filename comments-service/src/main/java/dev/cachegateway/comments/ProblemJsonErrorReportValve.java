package dev.cachegateway.comments;

import java.io.IOException;
import java.io.Writer;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.tomcat.util.json.JSONFilter;
import org.springframework.http.HttpStatus;

/**
 * Tomcat's error report for requests it rejects before Spring MVC sees them, written as
 * the same RFC 9457 problem details the application sends. Tomcat's own JSON report lists
 * the stack trace; this one never does.
 */
public class ProblemJsonErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        HttpStatus known = HttpStatus.resolve(status);
        String title = known != null ? known.getReasonPhrase() : "Error";
        String detail = response.getMessage() != null ? response.getMessage() : title;
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"title\":\"" + JSONFilter.escape(title) + "\",\"status\":" + status + ",\"detail\":\""
                        + JSONFilter.escape(detail) + "\"}");
                response.finishResponse();
            }
        }
        catch (IOException | IllegalStateException ex) {
            // The connection is already gone or the response committed: there is nobody
            // left to tell.
        }
    }

}
