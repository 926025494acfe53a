package dev.tickler;

import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * The test classes with an application of their own: a {@code @TestProfile}, for which Quarkus builds and starts the
 * application again, or a {@code @QuarkusMainTest}. Surefire runs this suite in a JVM beside
 * {@link SharedApplicationSuite}, where every other class shares one build and start of the default application.
 * They are named here, not tagged, because a suite that selected by tag would load every class to read its tags,
 * and Quarkus builds the application of each profile it finds while classes are loaded ({@code SuiteMembershipTest}
 * checks that this names exactly the classes with an application of their own).
 */
@Suite
@SelectPackages("dev.tickler")
@IncludeClassNamePatterns(OwnApplicationsSuite.CLASSES)
public class OwnApplicationsSuite {

    static final String CLASSES = "dev\\.tickler\\.(callback\\.(CallbackEndpointsTest|CallbacksTest)"
            + "|console\\.ConsoleOperatorKeysTest"
            + "|delivery\\.(DatabaseDownTest|FairTurnsTest|NotifierUrlRequiredTest|PollModeTest|ShutdownTest"
            + "|SignedPushTest|SlowProviderTest)"
            + "|local\\.LocalRunTest"
            + "|observability\\.ServingStartTest"
            + "|reminder\\.KeyedTenantsTest"
            + "|security\\.(OperatorKeysTest|SecretRulesStartTest|TenantsTest|WrongKeyLimitTest)"
            + "|sweep\\.(ScheduledReconcileTest|ScheduledSweepTest)"
            + "|tracing\\.QueueHopTracingTest)";
}
