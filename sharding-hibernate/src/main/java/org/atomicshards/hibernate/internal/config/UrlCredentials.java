package org.atomicshards.hibernate.internal.config;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A JDBC URL split into the URL without credentials and the user and password it carried, so that the password
 * travels to the driver as a connection property (which no driver and no pool logs) and never inside a URL (which
 * drivers log at DEBUG, pools print in errors and Hibernate prints with its settings).
 *
 * <p>Recognised forms:
 * <ul>
 *   <li>query parameters {@code user=} and {@code password=} after {@code ?}, separated by {@code &} (PostgreSQL,
 *       MariaDB, MySQL). For PostgreSQL the values are percent-decoded, as pgjdbc decodes them;</li>
 *   <li>H2's settings {@code ;USER=} and {@code ;PASSWORD=} (any case);</li>
 *   <li>an authority {@code //user:password@host} (percent-decoded). Neither pgjdbc nor MariaDB Connector/J
 *       accepts this form itself; taking it out makes such a URL work.</li>
 * </ul>
 * Parameter names are matched ignoring case. When a name appears twice the last value wins, as in the drivers.
 *
 * @param url the URL without the recognised credentials, never null
 * @param user the user found in the URL, or null
 * @param password the password found in the URL, or null; never logged
 */
public record UrlCredentials(String url, String user, String password) {

    @Override
    public String toString() {
        return "UrlCredentials[" + Redaction.url(url) + (user == null ? "" : ", user=" + user)
                + (password == null ? "" : ", password=***") + "]";
    }

    /** Splits {@code jdbcUrl}; a URL without credentials comes back unchanged with a null user and password. */
    public static UrlCredentials extract(String jdbcUrl) {
        if (jdbcUrl.regionMatches(true, 0, "jdbc:h2:", 0, "jdbc:h2:".length())) {
            return fromSettings(jdbcUrl);
        }
        return fromQueryAndAuthority(jdbcUrl, jdbcUrl.regionMatches(true, 0, "jdbc:postgresql:", 0, 16));
    }

    private static UrlCredentials fromSettings(String jdbcUrl) {
        String[] parts = jdbcUrl.split(";", -1);
        StringBuilder url = new StringBuilder(parts[0]);
        String user = null;
        String password = null;
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i];
            String name = nameOf(part);
            if (name.equals("user")) {
                user = valueOf(part, false);
            } else if (name.equals("password")) {
                password = valueOf(part, false);
            } else {
                url.append(';').append(part);
            }
        }
        return new UrlCredentials(url.toString(), user, password);
    }

    private static UrlCredentials fromQueryAndAuthority(String jdbcUrl, boolean decode) {
        String user = null;
        String password = null;
        String base = jdbcUrl;
        String query = null;
        int question = jdbcUrl.indexOf('?');
        if (question >= 0) {
            base = jdbcUrl.substring(0, question);
            query = jdbcUrl.substring(question + 1);
        }
        int authorityStart = base.indexOf("//");
        if (authorityStart >= 0) {
            authorityStart += 2;
            int authorityEnd = base.indexOf('/', authorityStart);
            String authority = authorityEnd < 0 ? base.substring(authorityStart) : base.substring(authorityStart, authorityEnd);
            int at = authority.lastIndexOf('@');
            if (at >= 0) {
                String userInfo = authority.substring(0, at);
                int colon = userInfo.indexOf(':');
                user = emptyToNull(decode(colon < 0 ? userInfo : userInfo.substring(0, colon), true));
                password = colon < 0 ? null : decode(userInfo.substring(colon + 1), true);
                base = base.substring(0, authorityStart) + base.substring(authorityStart + at + 1);
            }
        }
        if (query == null) {
            return new UrlCredentials(base, user, password);
        }
        List<String> kept = new ArrayList<>();
        for (String parameter : query.split("&", -1)) {
            String name = nameOf(parameter);
            if (name.equals("user")) {
                user = valueOf(parameter, decode);
            } else if (name.equals("password")) {
                password = valueOf(parameter, decode);
            } else if (!parameter.isEmpty()) {
                kept.add(parameter);
            }
        }
        return new UrlCredentials(kept.isEmpty() ? base : base + "?" + String.join("&", kept), user, password);
    }

    private static String nameOf(String parameter) {
        int equals = parameter.indexOf('=');
        return (equals < 0 ? parameter : parameter.substring(0, equals)).trim().toLowerCase(Locale.ROOT);
    }

    private static String valueOf(String parameter, boolean decode) {
        int equals = parameter.indexOf('=');
        return equals < 0 ? "" : decode(parameter.substring(equals + 1), decode);
    }

    private static String decode(String value, boolean decode) {
        if (!decode) {
            return value;
        }
        try {
            return URLDecoder.decode(value, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            // A stray '%': the driver would pass the text on as it is.
            return value;
        }
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
