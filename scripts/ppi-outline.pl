#!/usr/bin/perl
# ppi-outline.pl FILE...: the packages and named subs PPI finds in each
# file, one per line: FILE<TAB>LINE<TAB>KIND<TAB>NAME<TAB>PACKAGE, where
# KIND is module or function and PACKAGE is the package in effect where a
# sub is declared ("" in main without a package statement). A package
# statement holds until the next one or the end of its block; the block
# form, "package Foo { ... }", holds inside its block. Read by
# outline/perl_diff_test.go (scripts/perl-diff).
use strict;
use warnings;
use PPI;

for my $file (@ARGV) {
    my $doc = PPI::Document->new($file, readonly => 1);
    if (!$doc) {
        print STDERR "$file: ", PPI::Document->errstr, "\n";
        next;
    }
    $doc->index_locations;
    walk($doc, '', $file);
}

sub walk {
    my ($node, $pkg, $file) = @_;
    for my $child ($node->schildren) {
        if ($child->isa('PPI::Statement::Package')) {
            my $name = $child->namespace;
            # The line of the name, which a comment may put below "package".
            my $word = $child->schild(1) || $child;
            print join("\t", $file, $word->line_number, 'module', $name, $pkg), "\n";
            my $block = $child->find_first('PPI::Structure::Block');
            if ($block && $block->parent == $child) {
                walk($block, $name, $file);
            } else {
                $pkg = $name;
            }
        } elsif ($child->isa('PPI::Statement::Sub') && !$child->isa('PPI::Statement::Scheduled')) {
            my $name = $child->name;
            if (defined $name && $name ne '') {
                print join("\t", $file, $child->line_number, 'function', $name, $pkg), "\n";
            }
            walk($child, $pkg, $file);
        } elsif ($child->isa('PPI::Statement::End') || $child->isa('PPI::Statement::Data')) {
            last;
        } elsif ($child->isa('PPI::Node')) {
            walk($child, $pkg, $file);
        }
    }
}
