#!/usr/bin/perl
package Shape::Base;
use strict;
use warnings;
use constant PI => 3.14159;

our $VERSION = '1.00';

=head1 NAME

Shape::Base - sub not_a_sub { } in POD

=cut

sub new {
    my ($class, %args) = @_;
    my $self = bless {%args}, $class;
    my $helper = sub { return 1 };
    return $self;
}

sub area :lvalue { 0 }

sub name ($self) { $self->{name} }

sub forward;

my sub private_helper { 42 }

package Shape::Circle;
use parent -norequire, 'Shape::Base';

sub area {
    my $self = shift;
    return Shape::Base::PI * $self->{r} ** 2;
}

{
    package Shape::Inner;
    sub inner { 1 }
}

sub after_block { 2 }

package Shape::Square 2.0 {
    sub area { $_[0]{side} ** 2 }
    BEGIN { print "begin\n" }
}

sub Shape::Util::qualified { 3 }

print "done\n";

__END__
sub not_code { }
