package dev.tickler;

import org.junit.platform.suite.api.ExcludeClassNamePatterns;
import org.junit.platform.suite.api.ExcludeTags;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * Every test class that shares the default application, and the plain unit tests: all but
 * {@link OwnApplicationsSuite}'s, which Surefire runs in a second JVM at the same time.
 */
@Suite
@SelectPackages("dev.tickler")
@ExcludeClassNamePatterns(OwnApplicationsSuite.CLASSES)
@ExcludeTags("benchmark")
public class SharedApplicationSuite {
}
