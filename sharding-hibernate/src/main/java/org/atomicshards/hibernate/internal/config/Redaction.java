package org.atomicshards.hibernate.internal.config;

import java.util.regex.Pattern;

/** Removes credentials from JDBC URLs before they appear in a message or a log line. */
public final class Redaction {

    private static final Pattern PASSWORD_PARAMETER =
            Pattern.compile("(?i)(password|pwd|passwd)=[^;&]*");
    private static final Pattern USER_INFO = Pattern.compile("//[^/@]*@");

    private Redaction() {
    }

    /** {@code url} with password parameters and {@code user:password@} parts replaced by {@code ***}. */
    public static String url(String url) {
        if (url == null) {
            return null;
        }
        String withoutParameters = PASSWORD_PARAMETER.matcher(url).replaceAll("$1=***");
        return USER_INFO.matcher(withoutParameters).replaceAll("//***@");
    }
}
