<?php

const VERSION = '1.2.3';

define('LEGACY', true);

function slugify(string $text): string
{
    $clean = function ($s) {
        return trim($s);
    };
    $arrow = fn($s) => strtolower($s);
    return $arrow($clean($text));
}

if (!function_exists('dd')) {
    function dd(...$vars): never
    {
        exit(1);
    }
}
