package dev.cachegateway.gateway.settings;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an {@link UnknownSettingException} into Spring Boot's startup report, instead of
 * a stack trace.
 */
class UnknownSettingFailureAnalyzer extends AbstractFailureAnalyzer<UnknownSettingException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UnknownSettingException cause) {
        return new FailureAnalysis("The gateway does not know the setting " + cause.setting() + ".",
                "Correct its name, or remove it. The settings known there are: " + cause.known() + ".", cause);
    }

}
