// dtb: the command-line tool. Only this folder prints and chooses exit codes.
#include <exception>
#include <iostream>

#include "dtb/tools/command_line.hpp"

int main(int argc, char** argv) {
    using namespace dtb::tools;
    CommandLine cli;
    try {
        cli.app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return cli.app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return cli.app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return cli.app.exit(e);
    } catch (const CLI::ParseError& e) {
        cli.app.exit(e);
        return kExitBadInput;
    }
    try {
        return cli.action ? cli.action() : kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << "dtb: " << e.what() << "\n";
        return kExitBadInput;
    }
}
