package dev.cachegateway.gateway.settings;

/**
 * A setting the gateway does not know, most often a misspelt one. Startup stops on it: a
 * misspelt setting would otherwise be ignored, and the route or client would run with its
 * default without a word.
 */
public class UnknownSettingException extends IllegalStateException {

    private final String setting;

    private final String known;

    /**
     * @param setting the setting as it was given, with where it was given
     * @param known the settings that are known there, for the message
     */
    public UnknownSettingException(String setting, String known) {
        super("Unknown setting " + setting + "; known here: " + known);
        this.setting = setting;
        this.known = known;
    }

    public String setting() {
        return setting;
    }

    public String known() {
        return known;
    }

}
